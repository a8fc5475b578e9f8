using ProtoBuf;

namespace CamCube.Services.KeyValue.Messages;

/// <summary>A replica's answer to <see cref="Purge"/>.</summary>
[ProtoContract]
public sealed class Purged
{
    /// <summary>Gets or sets whether the replica holds nothing of the key now (it removed the tombstone, or had none).</summary>
    [ProtoMember(1)]
    public bool Ok { get; set; }
}
