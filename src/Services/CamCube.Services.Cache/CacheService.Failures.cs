namespace CamCube.Services.Cache;

/// <summary>
/// What the cache does when a server fails or comes back (camcubeos 5.1): items whose root changed
/// are flushed. The runtime says which key coordinates changed root (an <see cref="IKeyWatch"/> of
/// r = 1), so only their items are looked at, never the whole store.
/// </summary>
public sealed partial class CacheService : IOwnershipObserver
{
    /// <summary>The keys held here whose root may change, by key coordinate: copies, and items this node keeps as a failed home's stand-in root.</summary>
    private readonly Dictionary<KeyCoordinate, HashSet<byte[]>> _keysAt = [];
    private IKeyWatch? _roots;
    private int _keysWatched;

    /// <inheritdoc/>
    public override void OnServerReachabilityChanged(Coordinate server, bool reachable)
    {
        if (_store is not null)
        {
            UpdateLocalPath(_store);
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
