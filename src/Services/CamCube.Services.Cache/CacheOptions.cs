namespace CamCube.Services.Cache;

/// <summary>Settings of a <see cref="CacheService"/>; every limit is per node.</summary>
public sealed class CacheOptions
{
    /// <summary>Gets or sets k, the number of secondary replica key coordinates per key for hot spots (symbiotic-routing 3.3). 0 routes every read to the primary. Default 8; at most <see cref="HotSpotReplicas.SecondaryCountMax"/>.</summary>
    public int SecondaryReplicaCount { get; set; } = 8;

    /// <summary>Gets or sets the memory the node's store may use for items, keys and per-item overhead, in bytes; least recently used items are evicted beyond it. Default 64 MiB.</summary>
    public long MemoryLimitBytes { get; set; } = 64L * 1024 * 1024;

    /// <summary>Gets or sets the largest value an item may hold, in bytes (memcached <c>-I</c>). Default 1 MiB.</summary>
    public int ItemSizeMaxBytes { get; set; } = 1024 * 1024;

    /// <summary>Gets or sets how long a request waits for its answer before it completes with <see cref="CacheStatus.Timeout"/>. Default 5 seconds.</summary>
    public TimeSpan RequestTimeout { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>Gets or sets how many requests this node may have in flight; more complete at once with <see cref="CacheStatus.Busy"/>. Default 4,096.</summary>
    public int PendingRequestsMax { get; set; } = 4096;

    /// <summary>Gets or sets how many bytes of partly received multi-packet values the node may hold; fragments beyond it are dropped. Default 64 MiB.</summary>
    public long ReassemblyBytesMax { get; set; } = 64L * 1024 * 1024;

    /// <summary>Gets or sets how many servers the root records as holding copies of one item; beyond it answers go straight to the requester without filling a copy. Default 64.</summary>
    public int CopyHoldersMax { get; set; } = 64;

    /// <summary>Gets or sets the period of the sweep that times out requests and partial reassemblies. Default 100 ms.</summary>
    public TimeSpan SweepPeriod { get; set; } = TimeSpan.FromMilliseconds(100);

    /// <summary>
    /// Gets or sets how long a secondary's copy may answer reads, counted from when the secondary
    /// asked the root for it. A write at the root waits for every holder of a live copy to
    /// acknowledge its invalidation, or for the copy's lease to end, whichever comes first, so a
    /// lost invalidation delays a write by at most this long and never leaves a stale copy behind.
    /// Keep it well under <see cref="RequestTimeout"/>: a write whose holder cannot be reached waits for its lease. Default 2 seconds.
    /// </summary>
    public TimeSpan CopyLease { get; set; } = TimeSpan.FromSeconds(2);

    /// <summary>Gets or sets how long a requester waits for an answer before it sends the request again; the wait doubles per try up to <see cref="RetransmitIntervalMax"/>, and invalidations are repeated this often. Default 200 ms.</summary>
    public TimeSpan RetransmitInterval { get; set; } = TimeSpan.FromMilliseconds(200);

    /// <summary>Gets or sets the longest wait between two tries of one request. Default 800 ms.</summary>
    public TimeSpan RetransmitIntervalMax { get; set; } = TimeSpan.FromMilliseconds(800);

    /// <summary>
    /// Gets or sets how many answered writes the root remembers (for twice <see cref="RequestTimeout"/>)
    /// so that a write sent again is answered without being executed twice. When full, the oldest is
    /// forgotten early. Default 65,536.
    /// </summary>
    public int RecentWritesMax { get; set; } = 65_536;

    /// <summary>
    /// Gets or sets how many keys a copy holder remembers as invalidated (for <see cref="CopyLease"/>)
    /// so that a copy answered before the write and arriving after it is not kept. When full, every
    /// copy asked for before that moment is refused instead. Default 65,536.
    /// </summary>
    public int InvalidatedKeysMax { get; set; } = 65_536;

    /// <summary>
    /// Gets or sets whether a server acts as a key's root only while it reaches more than half of the
    /// cube's servers (default true). Servers cut off from the rest would otherwise serve their keys
    /// as roots while the majority, seeing them gone, serves the same keys at stand-in roots; and a
    /// server that loses the majority drops every item it holds, since while it was away the majority
    /// may have written its keys elsewhere. Turn it off only where a partition cannot happen.
    /// </summary>
    public bool RequireMajority { get; set; } = true;

    /// <summary>Checks the settings.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A setting is out of range.</exception>
    public void Validate()
    {
        ArgumentOutOfRangeException.ThrowIfNegative(SecondaryReplicaCount, nameof(SecondaryReplicaCount));
        ArgumentOutOfRangeException.ThrowIfGreaterThan(SecondaryReplicaCount, HotSpotReplicas.SecondaryCountMax, nameof(SecondaryReplicaCount));
        ArgumentOutOfRangeException.ThrowIfLessThan(ItemSizeMaxBytes, 1, nameof(ItemSizeMaxBytes));
        ArgumentOutOfRangeException.ThrowIfLessThan(MemoryLimitBytes, ItemSizeMaxBytes, nameof(MemoryLimitBytes));
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(RequestTimeout, TimeSpan.Zero, nameof(RequestTimeout));
        ArgumentOutOfRangeException.ThrowIfLessThan(PendingRequestsMax, 1, nameof(PendingRequestsMax));
        ArgumentOutOfRangeException.ThrowIfLessThan(ReassemblyBytesMax, ItemSizeMaxBytes, nameof(ReassemblyBytesMax));
        ArgumentOutOfRangeException.ThrowIfNegative(CopyHoldersMax, nameof(CopyHoldersMax));
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(SweepPeriod, TimeSpan.Zero, nameof(SweepPeriod));
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(CopyLease, TimeSpan.Zero, nameof(CopyLease));
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(RetransmitInterval, TimeSpan.Zero, nameof(RetransmitInterval));
        ArgumentOutOfRangeException.ThrowIfLessThan(RetransmitIntervalMax, RetransmitInterval, nameof(RetransmitIntervalMax));
        ArgumentOutOfRangeException.ThrowIfLessThan(RecentWritesMax, 1, nameof(RecentWritesMax));
        ArgumentOutOfRangeException.ThrowIfLessThan(InvalidatedKeysMax, 1, nameof(InvalidatedKeysMax));
    }
}
