using System.Runtime.CompilerServices;

namespace CamCube.Runtime.Routing;

/// <summary>
/// Shortest paths and reachability from one node over the links its link-state database says are
/// usable. Without any reported failure, paths come straight from coordinates; with failures, from
/// breadth-first searches recomputed lazily when the database changes (camcubeos 3.3).
/// </summary>
/// <remarks>
/// With failures the table keeps a distance array per neighbour (6 x 2 bytes per server): memory
/// linear in the shape's size per node, which the simulator's large runs should keep in mind.
/// </remarks>
internal sealed class RoutingTable
{
    private const ushort Unreached = ushort.MaxValue;

    /// <summary>Log2 of the direct-mapped root cache's entries: a hop resolves few distinct key coordinates.</summary>
    private const int RootCacheBits = 6;

    private readonly TorusShape _shape;
    private readonly Coordinate _self;
    private readonly int _selfIndex;
    private readonly byte _existingLinks;
    private readonly ReachabilityView _reachability;
    private readonly ushort[]?[] _distanceFromNeighbor = new ushort[]?[LinkDirections.Count];
    private readonly List<(Coordinate Server, bool Reachable)> _changes = [];
    private readonly int[] _bfsQueue;
    private readonly RootCacheEntry[] _rootCache = new RootCacheEntry[1 << RootCacheBits];
    private long _builtForVersion = -1;
    private bool _analytic = true;

    public RoutingTable(TorusShape shape, Coordinate self, byte existingLinks)
    {
        _shape = shape;
        _self = self;
        _selfIndex = (int)shape.IndexOf(self);
        _existingLinks = existingLinks;
        Database = new LinkStateDatabase(shape, existingLinks);
        _reachability = new ReachabilityView(shape);
        _bfsQueue = new int[shape.ServerCount];
        _builtForVersion = Database.Version;
    }

    public LinkStateDatabase Database { get; }

    public IReachabilityView Reachability
    {
        get
        {
            Refresh();
            return _reachability;
        }
    }

    /// <summary>
    /// Tries to get the root of <paramref name="key"/> under the current reachability view, as
    /// <see cref="KeySpace.TryGetRoot"/> does. Every packet resolves its key coordinates several
    /// times per hop (on arrival, in the extended router, per next key coordinate), so this avoids
    /// the walk: with every server reachable the root is the home (entry 0 of the walk); with
    /// failures it keeps roots in a small direct-mapped cache tagged with the view's version, so a
    /// reachability change invalidates them all at once.
    /// </summary>
    public bool TryGetRoot(KeySpace keySpace, KeyCoordinate key, out Coordinate root)
    {
        Refresh();
        var home = key.Home;
        if (!_shape.Contains(home))
        {
            // Out of shape: let the keyspace throw exactly as it always did.
            return keySpace.TryGetRoot(key, _reachability, out root);
        }

        if (_reachability.UnreachableCount == 0)
        {
            root = home;
            return true;
        }

        ref var entry = ref _rootCache[(int)(((uint)key.GetHashCode() * 0x9E3779B9u) >> (32 - RootCacheBits))];
        if (entry.Version == _reachability.Version && entry.Valid && entry.Key == key)
        {
            root = entry.Root;
            return true;
        }

        if (!keySpace.TryGetRoot(key, _reachability, out root))
        {
            // No server reachable: nothing worth keeping.
            return false;
        }

        entry = new RootCacheEntry(key, root, _reachability.Version, Valid: true);
        return true;
    }

    /// <summary>Gets the links (bit i for direction i) on a shortest path to <paramref name="server"/>; 0 if it is here or unreachable.</summary>
    public byte NextHops(Coordinate server)
    {
        Refresh();
        if (server == _self)
        {
            return 0;
        }

        if (_analytic)
        {
            return AnalyticNextHops(server);
        }

        var target = (int)_shape.IndexOf(server);
        var best = Unreached;
        byte links = 0;
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            var distances = _distanceFromNeighbor[d];
            if (distances is null)
            {
                continue;
            }

            var distance = distances[target];
            if (distance < best)
            {
                best = distance;
                links = (byte)(1 << d);
            }
            else if (distance == best && distance != Unreached)
            {
                links |= (byte)(1 << d);
            }
        }

        return best == Unreached ? (byte)0 : links;
    }

    /// <summary>
    /// Gets the links, other than those in <paramref name="excluded"/>, whose neighbour is closest to
    /// <paramref name="server"/>: a detour for when every shortest path leaves on an excluded link.
    /// </summary>
    public byte DetourHops(Coordinate server, byte excluded)
    {
        Refresh();
        var target = _analytic ? -1 : (int)_shape.IndexOf(server);
        var best = int.MaxValue;
        byte links = 0;
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            if ((_existingLinks & (1 << d)) == 0 || (excluded & (1 << d)) != 0)
            {
                continue;
            }

            int distance;
            if (_analytic)
            {
                distance = _shape.Distance(_shape.Neighbor(_self, (LinkDirection)d), server);
            }
            else
            {
                var distances = _distanceFromNeighbor[d];
                if (distances is null || distances[target] == Unreached)
                {
                    continue;
                }

                distance = distances[target];
            }

            if (distance < best)
            {
                best = distance;
                links = (byte)(1 << d);
            }
            else if (distance == best)
            {
                links |= (byte)(1 << d);
            }
        }

        return links;
    }

    public IReadOnlyList<Coordinate> GetUnreachableServers()
    {
        Refresh();
        var list = new List<Coordinate>();
        if (_reachability.UnreachableCount == 0)
        {
            return list;
        }

        for (long i = 0; i < _shape.ServerCount; i++)
        {
            var c = _shape.CoordinateAt(i);
            if (!_reachability.IsReachable(c))
            {
                list.Add(c);
            }
        }

        return list;
    }

    /// <summary>Takes the reachability changes found by refreshes since the last call.</summary>
    public (Coordinate Server, bool Reachable)[] TakeReachabilityChanges()
    {
        Refresh();
        var changes = _changes.ToArray();
        _changes.Clear();
        return changes;
    }

    /// <summary>Rebuilds the table if the database changed since it was built.</summary>
    /// <remarks>Every lookup calls this, several times per packet: the check stays small enough to inline.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Refresh()
    {
        if (_builtForVersion != Database.Version)
        {
            Rebuild();
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void Rebuild()
    {
        _builtForVersion = Database.Version;
        if (Database.DegradedCount == 0)
        {
            _analytic = true;
            Array.Clear(_distanceFromNeighbor);
            UpdateReachability(reached: null);
            return;
        }

        _analytic = false;
        var reached = new ushort[_shape.ServerCount];
        Search(_selfIndex, reached);
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            var link = (LinkDirection)d;
            _distanceFromNeighbor[d] = null;
            if ((_existingLinks & (1 << d)) == 0)
            {
                continue;
            }

            var neighbor = (int)_shape.IndexOf(_shape.Neighbor(_self, link));
            if (!Database.IsUsable(_selfIndex, link, neighbor, _shape.PeerLink(link)))
            {
                continue;
            }

            var distances = new ushort[_shape.ServerCount];
            Search(neighbor, distances);
            _distanceFromNeighbor[d] = distances;
        }

        UpdateReachability(reached);
    }

    private void UpdateReachability(ushort[]? reached)
    {
        for (var i = 0; i < _shape.ServerCount; i++)
        {
            var server = _shape.CoordinateAt(i);
            var reachable = reached is null || reached[i] != Unreached;
            if (_reachability.SetReachable(server, reachable))
            {
                _changes.Add((server, reachable));
            }
        }
    }

    /// <summary>Breadth-first search over usable links from <paramref name="origin"/>, writing hop distances (or <see cref="Unreached"/>).</summary>
    private void Search(int origin, ushort[] distances)
    {
        Array.Fill(distances, Unreached);
        distances[origin] = 0;
        var head = 0;
        var tail = 0;
        _bfsQueue[tail++] = origin;
        while (head < tail)
        {
            var index = _bfsQueue[head++];
            var coordinate = _shape.CoordinateAt(index);
            for (var d = 0; d < LinkDirections.Count; d++)
            {
                if ((_existingLinks & (1 << d)) == 0)
                {
                    continue;
                }

                var link = (LinkDirection)d;
                var neighbor = (int)_shape.IndexOf(_shape.Neighbor(coordinate, link));
                if (distances[neighbor] == Unreached && Database.IsUsable(index, link, neighbor, _shape.PeerLink(link)))
                {
                    distances[neighbor] = (ushort)Math.Min(distances[index] + 1, Unreached - 1);
                    _bfsQueue[tail++] = neighbor;
                }
            }
        }
    }

    private byte AnalyticNextHops(Coordinate server)
    {
        byte links = 0;
        links |= AxisHops(_self.X, server.X, _shape.X, LinkDirection.PlusX, LinkDirection.MinusX);
        links |= AxisHops(_self.Y, server.Y, _shape.Y, LinkDirection.PlusY, LinkDirection.MinusY);
        links |= AxisHops(_self.Z, server.Z, _shape.Z, LinkDirection.PlusZ, LinkDirection.MinusZ);
        return (byte)(links & _existingLinks);
    }

    private static byte AxisHops(int from, int to, int size, LinkDirection plus, LinkDirection minus)
    {
        if (from == to)
        {
            return 0;
        }

        var forward = to - from;
        if (forward < 0)
        {
            forward += size;
        }

        var backward = size - forward;
        return forward < backward ? (byte)(1 << (int)plus)
            : backward < forward ? (byte)(1 << (int)minus)
            : (byte)((1 << (int)plus) | (1 << (int)minus));
    }

    /// <summary>A cached root; <c>Valid</c> tells a filled entry from the default one.</summary>
    private readonly record struct RootCacheEntry(KeyCoordinate Key, Coordinate Root, long Version, bool Valid);
}
