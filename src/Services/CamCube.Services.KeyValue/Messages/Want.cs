using ProtoBuf;

namespace CamCube.Services.KeyValue.Messages;

/// <summary>The keys of an <see cref="Offer"/> the receiver holds an older version of, or none.</summary>
[ProtoContract]
public sealed class Want
{
    /// <summary>Gets or sets the keys' bytes, 20 each.</summary>
    [ProtoMember(1)]
    public List<byte[]> Keys { get; init; } = [];
}
