using ProtoBuf;

namespace CamCube.Services.KeyValue.Messages;

/// <summary>
/// The primary replicates a write under its ballot (or, with <see cref="CheckOnly"/>, asks whether
/// its ballot still stands, before it answers a read): a replica that promised a higher ballot refuses.
/// </summary>
[ProtoContract]
public sealed class Accept
{
    /// <summary>Gets or sets the key's 20 bytes.</summary>
    [ProtoMember(1)]
    public byte[] Key { get; set; } = [];

    /// <summary>Gets or sets the primary's ballot.</summary>
    [ProtoMember(2)]
    public long Ballot { get; set; }

    /// <summary>Gets or sets whether this only checks the ballot (a read), carrying no write.</summary>
    [ProtoMember(3)]
    public bool CheckOnly { get; set; }

    /// <summary>Gets or sets the write's version.</summary>
    [ProtoMember(4)]
    public long Version { get; set; }

    /// <summary>Gets or sets whether the write is a delete (a tombstone).</summary>
    [ProtoMember(5)]
    public bool Deleted { get; set; }

    /// <summary>Gets or sets the value's bytes.</summary>
    [ProtoMember(6)]
    public byte[] Value { get; set; } = [];

    /// <summary>Gets or sets the write's id from its front-end (<see cref="ClientRequest.WriteId"/>), 0 if none.</summary>
    [ProtoMember(7, DataFormat = DataFormat.FixedSize)]
    public ulong WriteId { get; set; }

    /// <summary>
    /// Gets the ids of the sets written in the same round before this one and superseded by it
    /// (<see cref="ClientRequest.WriteId"/>), in order: the i-th of n took effect at
    /// <see cref="Version"/> - (n - i), and the replica notes each, so that a front-end asking again
    /// after their primary died is answered from here rather than writing them a second time.
    /// </summary>
    [ProtoMember(8, DataFormat = DataFormat.FixedSize, IsPacked = true)]
    public List<ulong> SupersededWriteIds { get; } = [];
}
