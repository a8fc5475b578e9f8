namespace CamCube.Services.KeyValue.Leases;

/// <summary>
/// A primary's renewals in bulk with one replica, as the primary knows them: the run the replica
/// last told (<see cref="GrantedRenewal"/>), from when it covers leases and until when it runs on
/// the primary's clock, and the keys to give up with the next renewal. Used on the node's loop only.
/// </summary>
internal sealed class HeldRenewal
{
    private readonly List<byte[]> _releasedKeys = [];
    private readonly List<long> _releasedBallots = [];

    /// <summary>Gets the id of the replica's run (0: none yet, or the replica renews none).</summary>
    public long Id { get; private set; }

    /// <summary>
    /// Gets the earliest end of a key's lease (on this server's clock, as <c>KeyLane.LeaseUntil</c>)
    /// that the run renews: when the answer that told of the run arrived, which is after the
    /// replica began it. A lease that ended no earlier was still running at the replica then.
    /// </summary>
    public long CoversFrom { get; private set; }

    /// <summary>Gets when the run ends on this server's clock: the last answered renewal's sending time plus a lease, less the drift margin.</summary>
    public long Until { get; private set; }

    /// <summary>Gets or sets when a lease this run renews was last taken or used (this server's clock); renewals stop some time after.</summary>
    public long LastUsed { get; set; }

    /// <summary>Gets or sets whether a renewal is on its way (one at a time, so the runs' answers come in order).</summary>
    public bool Asking { get; set; }

    /// <summary>Gets whether keys wait to be given up.</summary>
    public bool HasReleases => _releasedKeys.Count > 0;

    /// <summary>Gets the keys that wait to be given up.</summary>
    public IReadOnlyList<byte[]> ReleasedKeys => _releasedKeys;

    /// <summary>Whether the run renews a key lease of the primary's that ends at <paramref name="leaseUntil"/>.</summary>
    public bool Covers(long leaseUntil) => Id != 0 && leaseUntil >= CoversFrom;

    /// <summary>Takes the replica's answer to a renewal sent at a time that makes the run last until <paramref name="until"/>, arriving at <paramref name="now"/>.</summary>
    public void Renewed(long id, long until, long now)
    {
        if (id != Id)
        {
            Id = id;
            CoversFrom = now;
            Until = until;
            return;
        }

        Until = Math.Max(Until, until);
    }

    /// <summary>Queues a key to give up with the next renewal, with the highest ballot this server knew of it.</summary>
    public void Release(byte[] key, long ballot)
    {
        _releasedKeys.Add(key);
        _releasedBallots.Add(ballot);
    }

    /// <summary>Moves up to <paramref name="max"/> queued keys into <paramref name="keys"/> and <paramref name="ballots"/>.</summary>
    public void TakeReleases(List<byte[]> keys, List<long> ballots, int max)
    {
        var count = Math.Min(max, _releasedKeys.Count);
        keys.AddRange(_releasedKeys.GetRange(0, count));
        ballots.AddRange(_releasedBallots.GetRange(0, count));
        _releasedKeys.RemoveRange(0, count);
        _releasedBallots.RemoveRange(0, count);
    }

    /// <summary>Queues again keys a renewal that failed carried.</summary>
    public void PutBack(List<byte[]> keys, List<long> ballots)
    {
        _releasedKeys.InsertRange(0, keys);
        _releasedBallots.InsertRange(0, ballots);
    }
}
