using ProtoBuf;

namespace CamCube.Messaging.Tests;

[ProtoContract]
public sealed class Relay
{
    [ProtoMember(1)]
    public string To { get; set; } = "";

    [ProtoMember(2)]
    public string Text { get; set; } = "";
}
