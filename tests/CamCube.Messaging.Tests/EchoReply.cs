using ProtoBuf;

namespace CamCube.Messaging.Tests;

[ProtoContract]
public sealed class EchoReply
{
    [ProtoMember(1)]
    public string Text { get; set; } = "";

    [ProtoMember(2)]
    public int X { get; set; }

    [ProtoMember(3)]
    public int Y { get; set; }

    [ProtoMember(4)]
    public int Z { get; set; }

    public Coordinate Server => new(X, Y, Z);
}
