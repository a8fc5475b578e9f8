using System.Buffers;

namespace CamCube.Services.Cache;

/// <summary>
/// The local path of a front-end on the key's root. The root executes requests on its own items
/// (camcubeos 5.1); when the front-end runs on that root, the request is executed at once on the
/// front-end's thread, under the store's lock, instead of making the round trip through the node's
/// event loop. Taken only while every server is reachable, so that the root is the home server of
/// the key's coordinate and F would route a read to the primary (distance 0) as well; and a write
/// only when no other server holds a copy, since invalidations travel from the loop. Anything else
/// returns false and goes through <see cref="ExecuteAsync"/>.
/// </summary>
public sealed partial class CacheService
{
    private volatile bool _everyServerReachable;
    private Coordinate _self;
    private KeySpace? _keySpace;

    /// <summary>
    /// Reads <paramref name="key"/> at this root; on a hit, <paramref name="sink"/> receives the value
    /// while the store's lock is held (it must copy, not keep, the span). Returns false, having done
    /// nothing, if the request must go through the loop. Thread-safe, allocation-free.
    /// </summary>
    internal bool TryGetLocally(ReadOnlySpan<byte> key, ICacheValueSink sink)
    {
        if (!IsLocalRoot(key))
        {
            return false;
        }

        var store = Store;
        lock (store.Gate)
        {
            // Re-checked under the lock: a reachability change takes the same lock (CacheService.Failures).
            if (!_everyServerReachable)
            {
                return false;
            }

            Statistics.CountGetCommand();
            var item = store.GetPrimary(key);
            if (item is null)
            {
                var found = TryReadSource(key, out var value, out var flags, out var version);
                Statistics.CountGet(found);
                if (found)
                {
                    sink.OnValue(key, value.Span, flags, version);
                }

                return true;
            }

            Statistics.CountGet(hit: true);
            sink.OnValue(key, item.Value, item.Flags, item.Cas);
            return true;
        }
    }

    /// <summary>
    /// Executes a store operation (set, add, replace, append, prepend, cas) at this root with the
    /// bytes in <paramref name="value"/>; the outcome is in <paramref name="status"/>. Returns false,
    /// having done nothing, if the request must go through the loop. Thread-safe; a set that keeps an
    /// item's length allocates nothing.
    /// </summary>
    internal bool TryStoreLocally(CacheOperation operation, ReadOnlySpan<byte> key, in ReadOnlySequence<byte> value, uint flags, int expirationSeconds, ulong compareCas, out CacheStatus status)
    {
        status = default;

        // A set beside a store goes through the loop, where the root keeps no second copy of what the store holds (CacheService.Source).
        if (value.Length > Options.ItemSizeMaxBytes || !IsLocalRoot(key) || (ValueSource is not null && operation == CacheOperation.Set))
        {
            return false;
        }

        var store = Store;
        lock (store.Gate)
        {
            if (!_everyServerReachable || !MayWriteLocally(store, key))
            {
                return false;
            }

            Statistics.CountSetCommand();
            status = store.Store(operation, key, flags, expirationSeconds, value, null, compareCas, _self, out _);
            return true;
        }
    }

    /// <summary>Executes delete at this root; the outcome is in <paramref name="status"/>. Returns false, having done nothing, if the request must go through the loop. Thread-safe.</summary>
    internal bool TryDeleteLocally(ReadOnlySpan<byte> key, out CacheStatus status)
    {
        status = default;
        if (!IsLocalRoot(key))
        {
            return false;
        }

        var store = Store;
        lock (store.Gate)
        {
            if (!_everyServerReachable || !MayWriteLocally(store, key))
            {
                return false;
            }

            status = store.Delete(key, out _);
            return true;
        }
    }

    /// <summary>Called on the loop whenever reachability may have changed; holds the store's lock so a local request sees it before or after, never during.</summary>
    private void UpdateLocalPath(CacheStore store)
    {
        lock (store.Gate)
        {
            _everyServerReachable = Node.Reachability.ReachableCount == Node.Shape.ServerCount;
        }
    }

    private bool IsLocalRoot(ReadOnlySpan<byte> key) =>
        _everyServerReachable && CacheKeys.IsValid(key) && _keySpace is { } keySpace && keySpace.KeyCoordinateOf(CacheKeys.MemId(key)).Home == _self;

    /// <summary>
    /// Whether a write may be answered at once here, under the store's lock: no copy of the key may be
    /// alive elsewhere: no live lease, none orphaned, no write waiting for acknowledgements (CacheService.Copies).
    /// </summary>
    private bool MayWriteLocally(CacheStore store, ReadOnlySpan<byte> key)
    {
        var now = store.Now;
        return _pendingWriteCount == 0 && store.OrphanedLeaseEnd <= now && !HasLiveHolders(store.GetPrimary(key), now);
    }
}
