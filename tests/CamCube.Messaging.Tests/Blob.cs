using ProtoBuf;

namespace CamCube.Messaging.Tests;

[ProtoContract]
public sealed class Blob
{
    [ProtoMember(1)]
    public int Id { get; set; }

    [ProtoMember(2)]
    public byte[] Data { get; set; } = [];
}
