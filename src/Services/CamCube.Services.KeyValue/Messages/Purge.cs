using ProtoBuf;

namespace CamCube.Services.KeyValue.Messages;

/// <summary>
/// The key's primary asks a replica to remove the key's tombstone, once the delete is older than the
/// tombstone lifetime and every replica holds it: the replica removes it only if it still holds
/// exactly that version and has promised no higher ballot.
/// </summary>
[ProtoContract]
public sealed class Purge
{
    /// <summary>Gets or sets the key's 20 bytes.</summary>
    [ProtoMember(1)]
    public byte[] Key { get; set; } = [];

    /// <summary>Gets or sets the primary's ballot.</summary>
    [ProtoMember(2)]
    public long Ballot { get; set; }

    /// <summary>Gets or sets the tombstone's version.</summary>
    [ProtoMember(3)]
    public long Version { get; set; }
}
