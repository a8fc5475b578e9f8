using ProtoBuf;

namespace CamCube.Messaging.Tests;

/// <summary>A small request for a large reply: a blob of <see cref="Bytes"/> bytes.</summary>
[ProtoContract]
public sealed class Grow
{
    [ProtoMember(1)]
    public int Id { get; set; }

    [ProtoMember(2)]
    public int Bytes { get; set; }
}
