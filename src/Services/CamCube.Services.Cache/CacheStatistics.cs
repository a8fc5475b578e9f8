namespace CamCube.Services.Cache;

/// <summary>Counters of one node's cache, readable from any thread (memcached <c>stats</c>).</summary>
public sealed class CacheStatistics
{
    private long _getHits;
    private long _getMisses;
    private long _getCommands;
    private long _setCommands;
    private long _secondaryHits;
    private long _invalidationsSent;
    private long _itemsFlushedOnFailure;
    private long _currentItems;
    private long _bytes;
    private long _evictions;
    private long _retransmissions;
    private long _refusedWithoutMajority;
    private long _movedWrites;

    /// <summary>Gets the reads this node's front-end asked for that found their item.</summary>
    public long GetHits => Volatile.Read(ref _getHits);

    /// <summary>Gets the reads this node's front-end asked for that found nothing.</summary>
    public long GetMisses => Volatile.Read(ref _getMisses);

    /// <summary>Gets the read requests started here.</summary>
    public long GetCommands => Volatile.Read(ref _getCommands);

    /// <summary>Gets the store requests started here.</summary>
    public long SetCommands => Volatile.Read(ref _setCommands);

    /// <summary>Gets the reads this node answered from a secondary copy (hot-spot hits).</summary>
    public long SecondaryHits => Volatile.Read(ref _secondaryHits);

    /// <summary>Gets the invalidations this node sent as a root to servers holding copies.</summary>
    public long InvalidationsSent => Volatile.Read(ref _invalidationsSent);

    /// <summary>Gets the items this node flushed because their root failed.</summary>
    public long ItemsFlushedOnFailure => Volatile.Read(ref _itemsFlushedOnFailure);

    /// <summary>Gets the items (roots' and copies) in this node's store.</summary>
    public long CurrentItems => Volatile.Read(ref _currentItems);

    /// <summary>Gets the bytes this node's store counts against its memory limit.</summary>
    public long Bytes => Volatile.Read(ref _bytes);

    /// <summary>Gets the items evicted to stay under the memory limit.</summary>
    public long Evictions => Volatile.Read(ref _evictions);

    /// <summary>Gets the requests this node sent again because no answer came in time.</summary>
    public long Retransmissions => Volatile.Read(ref _retransmissions);

    /// <summary>Gets the requests that reached this node as their key's root while it did not reach a majority of the servers, and were not served.</summary>
    public long RefusedWithoutMajority => Volatile.Read(ref _refusedWithoutMajority);

    /// <summary>Gets the writes this node sent again under a new id to their key's root, because the server they went to was no longer the root or became unreachable.</summary>
    public long MovedWrites => Volatile.Read(ref _movedWrites);

    internal void CountMovedWrite() => Interlocked.Increment(ref _movedWrites);

    internal void CountRefusedWithoutMajority() => Interlocked.Increment(ref _refusedWithoutMajority);

    internal void CountRetransmission() => Interlocked.Increment(ref _retransmissions);

    internal void CountGet(bool hit) => Interlocked.Increment(ref hit ? ref _getHits : ref _getMisses);

    internal void CountGetCommand() => Interlocked.Increment(ref _getCommands);

    internal void CountSetCommand() => Interlocked.Increment(ref _setCommands);

    internal void CountSecondaryHit() => Interlocked.Increment(ref _secondaryHits);

    internal void CountInvalidation() => Interlocked.Increment(ref _invalidationsSent);

    internal void CountFlushedOnFailure(int count) => Interlocked.Add(ref _itemsFlushedOnFailure, count);

    internal void Snapshot(CacheStore store)
    {
        Volatile.Write(ref _currentItems, store.Count);
        Volatile.Write(ref _bytes, store.UsedBytes);
        Volatile.Write(ref _evictions, store.Evictions);
    }
}
