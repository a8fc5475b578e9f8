namespace CamCube.Services.Cache;

/// <summary>
/// What the cache does when a server fails or comes back (camcubeos 5.1): items whose root changed
/// are flushed. The runtime says which key coordinates changed root (an <see cref="IKeyWatch"/> of
/// r = 1), so only their items are looked at, never the whole store. Under a partition only the side
/// with a majority of the servers serves (<see cref="CacheOptions.RequireMajority"/>): a server that
/// loses the majority drops everything it holds, because the majority takes its keys over at
/// stand-in roots and would write them there while it is away.
/// </summary>
public sealed partial class CacheService : IOwnershipObserver
{
    /// <summary>The keys held here whose root may change, by key coordinate: copies, and items this node keeps as a failed home's stand-in root.</summary>
    private readonly Dictionary<KeyCoordinate, HashSet<byte[]>> _keysAt = [];
    private IKeyWatch? _roots;
    private int _keysWatched;
    private bool _hadMajority;
    private long _standInWritesNotBefore = long.MinValue;

    /// <summary>Gets whether this server may act as a root: it reaches more than half of the servers, or the rule is off.</summary>
    private bool HasMajority => !Options.RequireMajority || Node.Reachability.ReachableCount * 2 > Node.Shape.ServerCount;

    /// <inheritdoc/>
    public override void OnServerReachabilityChanged(Coordinate server, bool reachable)
    {
        if (_store is null)
        {
            return;
        }

        UpdateLocalPath(_store);
        var now = Node.TimeProvider.GetTimestamp();
        if (!reachable)
        {
            // This server may now stand in as the root of keys whose root was the server just gone,
            // which may have granted copies that still answer.
            _standInWritesNotBefore = now + _leaseTicks;
            MoveWritesSentTo(server);
        }

        var hasMajority = HasMajority;
        if (_hadMajority && !hasMajority)
        {
            DropEverything(_store);
        }
        else if (!_hadMajority && hasMajority)
        {
            // While this server was away its keys had stand-in roots, whose copies may still answer.
            _store.NoteUnknownCopiesUntil(now + _leaseTicks);
        }

        _hadMajority = hasMajority;
    }

    /// <summary>
    /// The earliest time a write at this root may be answered because of copies that another root of
    /// its key granted: while this server stands in for the key's home (and for a copy lease after
    /// the server it took the key from became unreachable), that root's copies may still answer.
    /// </summary>
    private long StandInWritesNotBefore(ReadOnlySpan<byte> key, long now) =>
        _standInWritesNotBefore > now && Node.KeySpace.KeyCoordinateOf(CacheKeys.MemId(key)).Home != Node.Self
            ? _standInWritesNotBefore
            : long.MinValue;

    /// <summary>This server lost the majority: the others may take its keys over and write them elsewhere, so nothing it holds may answer once it is back.</summary>
    private void DropEverything(CacheStore store)
    {
        var dropped = (int)store.Count;
        store.FlushAll(0);
        foreach (var coordinate in _keysAt.Keys)
        {
            _roots!.Remove(coordinate);
        }

        _keysAt.Clear();
        _keysWatched = 0;
        Statistics.CountFlushedOnFailure(dropped);
        lock (store.Gate)
        {
            Statistics.Snapshot(store);
        }
    }

    /// <inheritdoc/>
    public void OnOwnershipChanged(IKeyWatch watch, ReadOnlySpan<KeyCoordinate> changed)
    {
        ArgumentNullException.ThrowIfNull(watch);
        var store = Store;
        var flushed = 0;
        foreach (var coordinate in changed)
        {
            if (!_keysAt.TryGetValue(coordinate, out var keys))
            {
                watch.Remove(coordinate);
                continue;
            }

            // camcubeos 5.1: "it flushes all cached items for which the failed server would be the root
            // for the memId"; and when a server comes back and takes its keys back, what this node held
            // as their stand-in root, and copies answered by a stand-in, would be stale, so they go too.
            var root = Node.GetRoot(coordinate);
            foreach (var key in keys)
            {
                flushed += store.RemoveUnlessRootIs(key, root) ? 1 : 0;
            }

            Forget(coordinate, keys, store);
        }

        Statistics.CountFlushedOnFailure(flushed);
        lock (store.Gate)
        {
            Statistics.Snapshot(store);
        }
    }

    /// <summary>
    /// Watches the root of <paramref name="key"/>, just stored here on the loop for <paramref name="root"/>:
    /// unless this node is the key's home and its root, which stays so while it lives. Allocates only
    /// for a key not watched yet.
    /// </summary>
    private void WatchRoot(ReadOnlySpan<byte> key, Coordinate root)
    {
        if (root == Node.Self && _everyServerReachable)
        {
            // Every server reachable: this root is the key's home (no hash needed to know it).
            return;
        }

        var coordinate = Node.KeySpace.KeyCoordinateOf(CacheKeys.MemId(key));
        if (root == Node.Self && coordinate.Home == Node.Self)
        {
            return;
        }

        if (!_keysAt.TryGetValue(coordinate, out var keys))
        {
            keys = new HashSet<byte[]>(ByteKeyComparer.Instance);
            _keysAt.Add(coordinate, keys);
            _roots!.Add(coordinate);
        }

        if (!keys.GetAlternateLookup<ReadOnlySpan<byte>>().Contains(key))
        {
            keys.Add(key.ToArray());
            _keysWatched++;
        }
    }

    /// <summary>Keeps watching the keys of <paramref name="coordinate"/> that are still held; stops watching it when none is.</summary>
    private void Forget(KeyCoordinate coordinate, HashSet<byte[]> keys, CacheStore store)
    {
        _keysWatched -= keys.RemoveWhere(key => !store.Holds(key));
        if (keys.Count == 0)
        {
            _keysAt.Remove(coordinate);
            _roots!.Remove(coordinate);
        }
    }

    /// <summary>On the sweep: once more keys are watched than twice the items held, those deleted, evicted or expired since are forgotten.</summary>
    private void PruneWatchedRoots(CacheStore store)
    {
        if (_keysWatched <= (2 * store.Count) + 1_024)
        {
            return;
        }

        foreach (var coordinate in _keysAt.Keys.ToArray())
        {
            Forget(coordinate, _keysAt[coordinate], store);
        }
    }
}
