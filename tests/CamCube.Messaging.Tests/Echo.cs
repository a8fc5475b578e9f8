using ProtoBuf;

namespace CamCube.Messaging.Tests;

[ProtoContract]
public sealed class Echo
{
    [ProtoMember(1)]
    public string Text { get; set; } = "";

    [ProtoMember(2)]
    public byte[] Padding { get; set; } = [];
}
