namespace CamCube.Services.Cache;

/// <summary>What the cache does when the runtime reports a server failed or came back (camcubeos 5.1).</summary>
public sealed partial class CacheService
{
    /// <inheritdoc/>
    public override void OnServerReachabilityChanged(Coordinate server, bool reachable)
    {
        if (_store is null)
        {
            return;
        }

        UpdateLocalPath(_store);
        int flushed;
        if (!reachable)
        {
            // camcubeos 5.1: "it flushes all cached items for which the failed server would be the root for the memId".
            flushed = _store.RemoveWhere(item => item.Root == server && item.Root != Node.Self);
        }
        else
        {
            // A server came back and takes its keys back: whatever this node held as their stand-in root,
            // and copies answered by a stand-in, would be stale, so they go too.
            flushed = _store.RemoveWhere(item => CurrentRootOf(item.Key) != item.Root);
        }

        Statistics.CountFlushedOnFailure(flushed);
        lock (_store.Gate)
        {
            Statistics.Snapshot(_store);
        }
    }

    private Coordinate CurrentRootOf(byte[] key) => Node.GetRoot(Node.KeySpace.KeyCoordinateOf(CacheKeys.MemId(key)));
}
