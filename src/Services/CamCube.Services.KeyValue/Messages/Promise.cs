using ProtoBuf;

namespace CamCube.Services.KeyValue.Messages;

/// <summary>A replica's answer to <see cref="Prepare"/>: its promise and its newest write of the key, or the higher ballot it promised already.</summary>
[ProtoContract]
public sealed class Promise
{
    /// <summary>Gets or sets whether the replica promised the ballot.</summary>
    [ProtoMember(1)]
    public bool Promised { get; set; }

    /// <summary>Gets or sets the ballot the replica has promised (the asked one, or the higher one that made it refuse).</summary>
    [ProtoMember(2)]
    public long Ballot { get; set; }

    /// <summary>Gets or sets the version the replica holds (0: none).</summary>
    [ProtoMember(3)]
    public long Version { get; set; }

    /// <summary>Gets or sets whether <see cref="Value"/> carries the write (the replica's version is newer than the primary's).</summary>
    [ProtoMember(4)]
    public bool HasValue { get; set; }

    /// <summary>Gets or sets whether the write is a delete (a tombstone).</summary>
    [ProtoMember(5)]
    public bool Deleted { get; set; }

    /// <summary>Gets or sets the value's bytes.</summary>
    [ProtoMember(6)]
    public byte[] Value { get; set; } = [];

    /// <summary>
    /// Gets or sets, when the replica refused only because a read lease it granted (or its own
    /// start) has not run out, how long until it would promise, in microseconds (0 otherwise).
    /// </summary>
    [ProtoMember(7)]
    public long LeaseWaitMicroseconds { get; set; }

    /// <summary>Gets or sets the id of the write of the value sent (<see cref="ClientRequest.WriteId"/>), 0 if none.</summary>
    [ProtoMember(8, DataFormat = DataFormat.FixedSize)]
    public ulong WriteId { get; set; }

    /// <summary>
    /// Gets the ids of the key's writes this replica knows took effect (<see cref="ClientRequest.WriteId"/>)
    /// and noted within twice the request timeout (a front-end may still ask about them), oldest first:
    /// a primary that restarted learns them again.
    /// </summary>
    [ProtoMember(9, DataFormat = DataFormat.FixedSize, IsPacked = true)]
    public List<ulong> RecentWriteIds { get; } = [];

    /// <summary>Gets the version of each of <see cref="RecentWriteIds"/>.</summary>
    [ProtoMember(10, IsPacked = true)]
    public List<long> RecentWriteVersions { get; } = [];

    /// <summary>
    /// Gets or sets whether the replica, which had never seen the key, kept the first write the
    /// <see cref="Prepare"/> carried, at the first version of its ballot, on disk with the promise.
    /// </summary>
    [ProtoMember(11)]
    public bool Kept { get; set; }
}
