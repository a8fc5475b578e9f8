namespace CamCube.Services.Cache;

/// <summary>
/// A node's items (camcubeos 5.1: the value is stored in memory at the memId's root, copies at
/// secondaries): a map by key bytes, least-recently-used eviction under a memory limit, expiry
/// by the node's clock and memcached's delayed flush_all. Thread-safe: every public method holds
/// <see cref="Gate"/> (reentrant), used by the node's loop and by the front-end's local path
/// (<see cref="CacheService"/>); a caller that reads an item's fields after a call holds it too.
/// </summary>
internal sealed partial class CacheStore
{
    private readonly Dictionary<byte[], CacheItem> _items = new(ByteKeyComparer.Instance);
    private readonly Dictionary<byte[], CacheItem>.AlternateLookup<ReadOnlySpan<byte>> _byBytes;
    private readonly TimeProvider _clock;
    private CacheItem? _newest;
    private CacheItem? _oldest;
    private long _flushAt = long.MinValue;
    private ulong _lastCas;

    public CacheStore(TimeProvider clock, long memoryLimitBytes, int itemSizeMaxBytes)
    {
        _clock = clock;
        MemoryLimitBytes = memoryLimitBytes;
        ItemSizeMaxBytes = itemSizeMaxBytes;
        _byBytes = _items.GetAlternateLookup<ReadOnlySpan<byte>>();
    }

    /// <summary>
    /// Gets the end of the latest copy lease on a root item that left the store without its copies
    /// being invalidated (evicted, expired, refused as too large, flushed by a failure), or <see cref="long.MinValue"/>:
    /// until then a copy of some key may be alive that the root no longer knows of, so the root's
    /// writes wait for it (camcubeos 5.1 invalidates copies; a lease bounds what it cannot reach).
    /// </summary>
    public long OrphanedLeaseEnd { get; private set; } = long.MinValue;

    /// <summary>Gets the lock that guards the items; hold it to read an item a method returned.</summary>
    public Lock Gate { get; } = new();

    public long MemoryLimitBytes { get; }

    public int ItemSizeMaxBytes { get; }

    public int Count => _items.Count;

    public long UsedBytes { get; private set; }

    public long Evictions { get; private set; }

    public long Now => _clock.GetTimestamp();

    /// <summary>Gets a live item (not expired, not flushed) and marks it most recently used; drops a dead one.</summary>
    public CacheItem? Get(ReadOnlySpan<byte> key)
    {
        lock (Gate)
        {
            if (!_byBytes.TryGetValue(key, out var item))
            {
                return null;
            }

            if (IsDead(item, Now))
            {
                NoteOrphaned(item);
                Unlink(item);
                _items.Remove(item.Key);
                return null;
            }

            MoveToNewest(item);
            return item;
        }
    }

    /// <summary>Stores <paramref name="item"/>, replacing any item of its key, and evicts the least recently used beyond the limit.</summary>
    /// <returns>False if the item alone exceeds the memory limit (it is not stored).</returns>
    public bool Put(CacheItem item)
    {
        lock (Gate)
        {
            if (item.SizeBytes > MemoryLimitBytes)
            {
                RemoveOrphaning(item.Key);
                return false;
            }

            Remove(item.Key);
            item.StoredAt = Now;
            _items.Add(item.Key, item);
            LinkNewest(item);
            while (UsedBytes > MemoryLimitBytes && _oldest is { } victim && victim != item)
            {
                NoteOrphaned(victim);
                Unlink(victim);
                _items.Remove(victim.Key);
                Evictions++;
            }

            return true;
        }
    }

    /// <summary>Changes an item's value in place (append, prepend, incr, decr), keeping the memory count right.</summary>
    private void ReplaceValue(CacheItem item, byte[] value)
    {
        UsedBytes += value.Length - item.Value.Length;
        item.Value = value;
        item.StoredAt = Now;
    }

    /// <summary>Removes the item of <paramref name="key"/>, live or not; returns it or null.</summary>
    public CacheItem? Remove(ReadOnlySpan<byte> key)
    {
        lock (Gate)
        {
            if (!_byBytes.Remove(key, out _, out var item))
            {
                return null;
            }

            Unlink(item);
            return item;
        }
    }

    /// <summary>Removes the item of <paramref name="key"/> as <see cref="Remove"/> does, noting its copies' leases as orphaned.</summary>
    public CacheItem? RemoveOrphaning(ReadOnlySpan<byte> key)
    {
        lock (Gate)
        {
            var item = Remove(key);
            if (item is not null)
            {
                NoteOrphaned(item);
            }

            return item;
        }
    }

    /// <summary>Removes the item of <paramref name="key"/> if it was stored for another root than <paramref name="root"/>, noting its copies' leases as orphaned; returns whether it did.</summary>
    public bool RemoveUnlessRootIs(ReadOnlySpan<byte> key, Coordinate root)
    {
        lock (Gate)
        {
            if (!_byBytes.TryGetValue(key, out var item) || item.Root == root)
            {
                return false;
            }

            NoteOrphaned(item);
            Unlink(item);
            _items.Remove(item.Key);
            return true;
        }
    }

    /// <summary>Gets whether an item of <paramref name="key"/> is held, live or not.</summary>
    public bool Holds(ReadOnlySpan<byte> key)
    {
        lock (Gate)
        {
            return _byBytes.ContainsKey(key);
        }
    }

    /// <summary>memcached flush_all: with no delay every item goes now; with a delay, every item stored before then dies then.</summary>
    public void FlushAll(int delaySeconds)
    {
        lock (Gate)
        {
            if (delaySeconds <= 0)
            {
                // Copies are not orphaned: flush_all reaches every server, which drops its copies too
                // and acknowledges before flush_all is answered.
                _items.Clear();
                _newest = null;
                _oldest = null;
                UsedBytes = 0;
                _flushAt = long.MinValue;
                return;
            }

            _flushAt = Now + (delaySeconds * _clock.TimestampFrequency);
        }
    }

    /// <summary>Gets the next CAS unique value (the root keeps them; camcubeos 5.1).</summary>
    private ulong NextCas() => ++_lastCas;

    /// <summary>Gets the timestamp at which an item stored now with <paramref name="expirationSeconds"/> expires.</summary>
    public long ExpiryOf(int expirationSeconds) => expirationSeconds switch
    {
        0 => long.MaxValue,
        < 0 => Now - 1,
        _ => Now + (expirationSeconds * _clock.TimestampFrequency),
    };

    /// <summary>Gets an item's remaining life in whole seconds, rounded up, for a copy: 0 never expires.</summary>
    public int RemainingSeconds(CacheItem item)
    {
        if (item.ExpiresAt == long.MaxValue)
        {
            return 0;
        }

        var left = item.ExpiresAt - Now;
        return left <= 0 ? -1 : (int)Math.Min(int.MaxValue, (left + _clock.TimestampFrequency - 1) / _clock.TimestampFrequency);
    }

    /// <summary>
    /// Holds the root's writes until <paramref name="leaseEnd"/>, as for an orphaned copy: copies this
    /// root never recorded may answer until then (granted by an earlier life of this server, or by
    /// another server that stood in as the root of its keys).
    /// </summary>
    public void NoteUnknownCopiesUntil(long leaseEnd)
    {
        lock (Gate)
        {
            OrphanedLeaseEnd = Math.Max(OrphanedLeaseEnd, leaseEnd);
        }
    }

    private void NoteOrphaned(CacheItem item)
    {
        if (!item.IsCopy && item.CopyHolders is { Count: > 0 })
        {
            OrphanedLeaseEnd = Math.Max(OrphanedLeaseEnd, item.LatestLeaseEnd);
        }
    }

    private bool IsDead(CacheItem item, long now) =>
        item.ExpiresAt <= now || (_flushAt != long.MinValue && _flushAt <= now && item.StoredAt <= _flushAt);

    private void LinkNewest(CacheItem item)
    {
        item.Older = _newest;
        item.Newer = null;
        if (_newest is not null)
        {
            _newest.Newer = item;
        }

        _newest = item;
        _oldest ??= item;
        UsedBytes += item.SizeBytes;
    }

    private void Unlink(CacheItem item)
    {
        if (item.Older is not null)
        {
            item.Older.Newer = item.Newer;
        }
        else
        {
            _oldest = item.Newer;
        }

        if (item.Newer is not null)
        {
            item.Newer.Older = item.Older;
        }
        else
        {
            _newest = item.Older;
        }

        item.Newer = null;
        item.Older = null;
        UsedBytes -= item.SizeBytes;
    }

    private void MoveToNewest(CacheItem item)
    {
        if (_newest == item)
        {
            return;
        }

        Unlink(item);
        LinkNewest(item);
    }
}
