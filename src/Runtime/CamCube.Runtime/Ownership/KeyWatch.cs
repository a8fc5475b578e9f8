using CamCube.Services;

namespace CamCube.Runtime.Ownership;

/// <summary>
/// A service's watched key coordinates with their replica sets, indexed by the servers of each
/// one's walk up to its r-th reachable server (the walk's prefix). A change of a server's
/// reachability can change the replica set of a key coordinate only if that server is in its prefix
/// (camcubeos 3.2: GetServersForKey skips unreachable servers and stops at the r-th reachable), so
/// after a view change only the key coordinates indexed under the changed servers are computed again.
/// </summary>
internal sealed class KeyWatch : IKeyWatch
{
    private readonly Node _node;
    private readonly ReachabilityView _everyone;
    private readonly Dictionary<KeyCoordinate, Watched> _watched = [];
    private readonly Dictionary<Coordinate, HashSet<KeyCoordinate>> _byServer = [];
    private readonly HashSet<KeyCoordinate> _candidates = [];
    private readonly List<KeyCoordinate> _changed = [];
    private Coordinate[] _walk = new Coordinate[8];

    public KeyWatch(Node node, ServiceSlot slot, int replicaCount)
    {
        _node = node;
        Slot = slot;
        ReplicaCount = replicaCount;
        _everyone = new ReachabilityView(node.Shape);
    }

    public ServiceSlot Slot { get; }

    public int ReplicaCount { get; }

    public int Count => _watched.Count;

    public bool Add(KeyCoordinate key)
    {
        _node.Shape.EnsureContains(key.Home, nameof(key));
        if (_watched.ContainsKey(key))
        {
            return false;
        }

        Index(key, PrefixOf(key));
        return true;
    }

    public bool Remove(KeyCoordinate key)
    {
        if (!_watched.Remove(key, out var watched))
        {
            return false;
        }

        Unindex(key, watched.Prefix);
        return true;
    }

    public void Clear()
    {
        _watched.Clear();
        _byServer.Clear();
    }

    public bool Contains(KeyCoordinate key) => _watched.ContainsKey(key);

    /// <summary>
    /// The view changed for <paramref name="changes"/>: computes again the replica sets of the key
    /// coordinates whose prefix holds one of those servers, re-indexes them, and returns those whose
    /// replica set differs (valid until the next call).
    /// </summary>
    public List<KeyCoordinate> TakeChanges((Coordinate Server, bool Reachable)[] changes)
    {
        _changed.Clear();
        _candidates.Clear();
        foreach (var (server, _) in changes)
        {
            if (_byServer.TryGetValue(server, out var keys))
            {
                _candidates.UnionWith(keys);
            }
        }

        foreach (var key in _candidates)
        {
            var before = _watched[key];
            var after = PrefixOf(key);
            if (!before.Replicas.AsSpan().SequenceEqual(after.Replicas))
            {
                _changed.Add(key);
            }

            Unindex(key, before.Prefix);
            Index(key, after);
        }

        _candidates.Clear();
        return _changed;
    }

    /// <summary>The key coordinate's walk up to and including its r-th reachable server (or the whole walk when fewer are reachable).</summary>
    private Watched PrefixOf(KeyCoordinate key)
    {
        var view = _node.Reachability;
        var keySpace = _node.KeySpace;
        var serverCount = _node.Shape.ServerCount;
        var length = Math.Min(_walk.Length, (int)Math.Min(serverCount, int.MaxValue));
        while (true)
        {
            var walked = keySpace.GetServersForKey(key, _everyone, _walk.AsSpan(0, length));
            var reachable = 0;
            for (var i = 0; i < walked; i++)
            {
                if (view.IsReachable(_walk[i]) && ++reachable == ReplicaCount)
                {
                    return Watched.Of(_walk.AsSpan(0, i + 1), view, reachable);
                }
            }

            if (walked >= serverCount)
            {
                return Watched.Of(_walk.AsSpan(0, walked), view, reachable);
            }

            if (length == _walk.Length)
            {
                Array.Resize(ref _walk, (int)Math.Min(serverCount, _walk.Length * 2L));
            }

            length = _walk.Length;
        }
    }

    private void Index(KeyCoordinate key, Watched watched)
    {
        _watched[key] = watched;
        foreach (var server in watched.Prefix)
        {
            if (!_byServer.TryGetValue(server, out var keys))
            {
                keys = [];
                _byServer.Add(server, keys);
            }

            keys.Add(key);
        }
    }

    private void Unindex(KeyCoordinate key, Coordinate[] prefix)
    {
        foreach (var server in prefix)
        {
            if (_byServer.TryGetValue(server, out var keys) && keys.Remove(key) && keys.Count == 0)
            {
                _byServer.Remove(server);
            }
        }
    }

    /// <summary>A watched key coordinate: its walk's prefix (what it is indexed under) and its replica set, root first.</summary>
    private readonly record struct Watched(Coordinate[] Prefix, Coordinate[] Replicas)
    {
        public static Watched Of(ReadOnlySpan<Coordinate> prefix, IReachabilityView view, int reachable)
        {
            var replicas = new Coordinate[reachable];
            var n = 0;
            foreach (var server in prefix)
            {
                if (view.IsReachable(server))
                {
                    replicas[n++] = server;
                }
            }

            return new Watched(prefix.ToArray(), replicas);
        }
    }
}
