using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace CamCube.Runtime.Routing;

/// <summary>
/// Shortest paths and reachability from one node over the links its link-state database says are
/// usable. Without any reported failure, paths come straight from coordinates; with failures, from
/// breadth-first searches on a <see cref="RoutingGraph"/> of the database's links, searched lazily
/// per neighbour when a route needs it (camcubeos 3.3).
/// </summary>
/// <remarks>
/// The graph comes from a <see cref="RoutingComputationCache"/>: shared with the other nodes of
/// the process whose databases hold the same links (the simulator's), or private to this node.
/// The table itself keeps only references to the graph's arrays, none of its own per server.
/// </remarks>
internal sealed class RoutingTable
{
    private const ushort Unreached = RoutingGraph.Unreached;

    private readonly TorusShape _shape;
    private readonly Coordinate _self;
    private readonly int _selfIndex;
    private readonly byte _existingLinks;
    private readonly int[] _neighborIndex = new int[LinkDirections.Count];
    private readonly RoutingComputationCache _computations;
    private readonly ReachabilityView _reachability;
    private readonly ushort[]?[] _distanceFromNeighbor = new ushort[]?[LinkDirections.Count];
    private readonly List<(Coordinate Server, bool Reachable)> _changes = [];

    /// <summary>
    /// Without failures, the shortest-path links to a server per axis, indexed by its x, then y
    /// (after the x entries), then z: a hop's next links are three loads, not three comparisons chains.
    /// </summary>
    private readonly byte[] _axisHops;

    /// <summary>
    /// With failures, the next hops to every server, filled in one vectorised pass over the
    /// neighbours' distances at the first lookup after a rebuild (<see cref="_searchedHopsValid"/>):
    /// under churn a node rebuilds a dozen times a second and resolves a few hundred distinct
    /// servers in between, so filling the row costs less than looking each of them up on its own,
    /// and a hop is one load. Allocated at the first failure; one byte per server, like the database's five.
    /// </summary>
    private byte[]? _searchedHops;
    private bool _searchedHopsValid;
    private RoutingGraph? _graph;

    /// <summary>The label of this node's component in <see cref="_graph"/>: its reachability view.</summary>
    private int _component;
    private ulong[]? _reachableBits;
    private byte _usableLinks;

    /// <summary>
    /// Whether the database changed since the table was built: set by the database, so the check
    /// at every hop reads this object only, not the database's.
    /// </summary>
    private bool _stale;

    /// <summary>The reachability view's unreachable count, kept here for the same reason.</summary>
    private long _unreachableCount;
    private bool _analytic = true;

    /// <summary>Creates the table of the node at <paramref name="self"/>.</summary>
    /// <param name="shape">The torus.</param>
    /// <param name="self">The node's coordinate.</param>
    /// <param name="existingLinks">The links the shape gives every server (bit i for direction i).</param>
    /// <param name="computations">Searches shared with other nodes of the same shape; if null, the table keeps its own.</param>
    public RoutingTable(TorusShape shape, Coordinate self, byte existingLinks, RoutingComputationCache? computations = null)
    {
        _shape = shape;
        _self = self;
        _selfIndex = (int)shape.IndexOf(self);
        _existingLinks = existingLinks;
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            _neighborIndex[d] = (int)shape.IndexOf(shape.Neighbor(self, (LinkDirection)d));
        }

        _axisHops = new byte[shape.X + shape.Y + shape.Z];
        var offset = 0;
        foreach (var axis in (ReadOnlySpan<Axis>)[Axis.X, Axis.Y, Axis.Z])
        {
            for (var i = 0; i < shape[axis]; i++)
            {
                _axisHops[offset + i] = AxisHops(self[axis], i, shape[axis], LinkDirections.Of(axis, +1), LinkDirections.Of(axis, -1));
            }

            offset += shape[axis];
        }

        _computations = computations ?? new RoutingComputationCache(shape, graphsMax: 1);
        Database = new LinkStateDatabase(shape, existingLinks);
        _reachability = new ReachabilityView(shape);
        Database.Changed = MarkStale;
    }

    public LinkStateDatabase Database { get; }

    /// <summary>
    /// Gets whether the table is up to date and no link is reported down: every key's root is its
    /// home and <see cref="FailureFreeNextHops"/> gives next hops, so a caller resolving several
    /// coordinates checks once instead of per coordinate.
    /// </summary>
    public bool IsFailureFree => _analytic && !_stale && _unreachableCount == 0;

    /// <summary>The links on a shortest path to <paramref name="server"/> (in the shape) while <see cref="IsFailureFree"/>; 0 for this server.</summary>
    public byte FailureFreeNextHops(Coordinate server) => AnalyticNextHops(server);

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
    /// the walk: a reachable home is the root (entry 0 of the walk); with the home unreachable it
    /// keeps roots in a <see cref="RootCache"/> shared with the other nodes of its component of the
    /// same graph, so a key resolved at one hop is found at the next.
    /// </summary>
    public bool TryGetRoot(KeySpace keySpace, KeyCoordinate key, out Coordinate root)
    {
        // The common cases, small enough to inline at every hop: up to date, and the home reachable
        // (with 10% failed, nine keys in ten).
        if (!_stale && _shape.Contains(key.Home) && (_unreachableCount == 0 || IsReachable(key.Home)))
        {
            root = key.Home;
            return true;
        }

        return TryGetRootSlow(keySpace, key, out root);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool TryGetRootSlow(KeySpace keySpace, KeyCoordinate key, out Coordinate root)
    {
        Refresh();
        var home = key.Home;
        if (!_shape.Contains(home))
        {
            // Out of shape: let the keyspace throw exactly as it always did.
            return keySpace.TryGetRoot(key, _reachability, out root);
        }

        if (_unreachableCount == 0 || IsReachable(home))
        {
            // The keyspace's walk starts at the home: a reachable home is the root (with 10%
            // failed, nine keys in ten; random keys would rarely hit the cache below).
            root = home;
            return true;
        }

        // The view is this node's component of the graph: its roots are shared with the other nodes of that component.
        var graph = _graph;
        if (graph is not null && _computations.Roots.TryGet(key, graph.Id, _component, out root))
        {
            return true;
        }

        if (!keySpace.TryGetRoot(key, _reachability, out root))
        {
            // No server reachable: nothing worth keeping.
            return false;
        }

        if (graph is not null)
        {
            _computations.Roots.Set(key, graph.Id, _component, root);
        }

        return true;
    }

    /// <summary>Gets the links (bit i for direction i) on a shortest path to <paramref name="server"/>; 0 if it is here or unreachable.</summary>
    public byte NextHops(Coordinate server)
    {
        // Without failures (and up to date), three table loads; inlined at every hop.
        if (_analytic && !_stale)
        {
            return AnalyticNextHops(server);
        }

        return SearchedNextHops(server);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private byte SearchedNextHops(Coordinate server)
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

        if (!_searchedHopsValid)
        {
            FillSearchedHops();
        }

        // The row's length is the server count: reading past the bounds check saves a cache miss
        // on the array's header at every hop (the row itself is one more, unavoidable).
        var target = _shape.IndexOf(server);
        if ((ulong)target >= (ulong)_shape.ServerCount)
        {
            return 0;
        }

        return Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_searchedHops!), (nint)target);
    }

    /// <summary>Fills <see cref="_searchedHops"/>: per server, the usable links whose neighbour is closest to it (0 if none reaches it).</summary>
    private void FillSearchedHops()
    {
        var hops = _searchedHops ??= new byte[_shape.ServerCount];
        Span<int> usable = stackalloc int[LinkDirections.Count];
        var usableCount = 0;
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            if (DistancesFromNeighbor(d) is not null)
            {
                usable[usableCount++] = d;
            }
        }

        NextHopRow.Fill(_distanceFromNeighbor, usable[..usableCount], hops);
        _searchedHopsValid = true;
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
                var distances = DistancesFromNeighbor(d);
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
        if (_stale)
        {
            Rebuild();
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void Rebuild()
    {
        _stale = false;
        Array.Clear(_distanceFromNeighbor);
        _searchedHopsValid = false;
        _usableLinks = 0;
        if (Database.DegradedCount == 0)
        {
            _analytic = true;
            _graph = null;
            UpdateReachability(reachable: null);
            return;
        }

        _analytic = false;
        _graph = _computations.GetGraph(Database);
        _component = _graph.ComponentOf(_selfIndex);
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            var link = (LinkDirection)d;
            if ((_existingLinks & (1 << d)) != 0 && _graph.IsUsable(_selfIndex, link, _neighborIndex[d], _shape.PeerLink(link)))
            {
                _usableLinks |= (byte)(1 << d);
            }
        }

        UpdateReachability(_graph.ReachableFrom(_selfIndex));
    }

    /// <summary>Gets the distances from the neighbour on link <paramref name="d"/>, searching the graph the first time; null if the link is not usable.</summary>
    private ushort[]? DistancesFromNeighbor(int d)
    {
        if ((_usableLinks & (1 << d)) == 0)
        {
            return null;
        }

        return _distanceFromNeighbor[d] ??= _graph!.DistancesFrom(_neighborIndex[d]);
    }

    /// <summary>Marks the servers whose reachability changed (bitset, null for all reachable) and records the changes, in server order.</summary>
    private void UpdateReachability(ulong[]? reachable)
    {
        var previous = _reachableBits;
        _reachableBits = reachable;
        if (previous is null && reachable is null)
        {
            return;
        }

        MarkChanges(previous, reachable);
        _unreachableCount = _reachability.UnreachableCount;
    }

    private void MarkChanges(ulong[]? previous, ulong[]? reachable)
    {
        var words = (int)((_shape.ServerCount + 63) / 64);
        for (var w = 0; w < words; w++)
        {
            var was = previous is null ? ulong.MaxValue : previous[w];
            var now = reachable is null ? ulong.MaxValue : reachable[w];
            var changed = was ^ now;
            while (changed != 0)
            {
                var bit = BitOperations.TrailingZeroCount(changed);
                changed &= changed - 1;
                var index = (w * 64) + bit;
                if (index >= _shape.ServerCount)
                {
                    break;
                }

                var server = _shape.CoordinateAt(index);
                var isReachable = (now & (1UL << bit)) != 0;
                if (_reachability.SetReachable(server, isReachable))
                {
                    _changes.Add((server, isReachable));
                }
            }
        }
    }

    private void MarkStale() => _stale = true;

    /// <summary>Gets whether <paramref name="server"/> is reachable, from the graph's bitset (shared by the nodes of a component), as the view has it.</summary>
    private bool IsReachable(Coordinate server)
    {
        var bits = _reachableBits;
        if (bits is null)
        {
            return true;
        }

        var index = _shape.IndexOf(server);
        return (bits[index >> 6] & (1UL << (int)(index & 63))) != 0;
    }

    private byte AnalyticNextHops(Coordinate server)
    {
        var hops = _axisHops;
        var links = hops[server.X] | hops[_shape.X + server.Y] | hops[_shape.X + _shape.Y + server.Z];
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
}
