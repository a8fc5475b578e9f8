using ProtoBuf;

namespace CamCube.Messaging.Tests;

[ProtoContract]
public sealed class Boom
{
    [ProtoMember(1)]
    public string Why { get; set; } = "";
}
