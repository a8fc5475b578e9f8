using ProtoBuf;

namespace CamCube.Services.KeyValue.Messages;

/// <summary>
/// A primary to one of its keys' other replicas, every third of a read lease: renew every key lease
/// the replica granted it that had not run out when these renewals began (docs/key-value-store.md,
/// "Read leases renewed in bulk"), and give up the keys listed, which it no longer serves.
/// </summary>
[ProtoContract]
public sealed class RenewLeases
{
    /// <summary>Gets the keys whose leases the primary gives up (a replica told it another server wants them, and it no longer serves them).</summary>
    [ProtoMember(1)]
    public List<byte[]> ReleasedKeys { get; } = [];

    /// <summary>Gets, for each of <see cref="ReleasedKeys"/>, the highest ballot the primary knew of the key: a lease granted under a higher one is not given up.</summary>
    [ProtoMember(2, IsPacked = true)]
    public List<long> ReleasedBallots { get; } = [];
}
