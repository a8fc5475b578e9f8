using ProtoBuf;

namespace CamCube.Messaging.Tests;

[ProtoContract]
public sealed class Note
{
    [ProtoMember(1)]
    public string Text { get; set; } = "";
}
