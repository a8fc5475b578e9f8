namespace CamCube.Runtime.Routing;

/// <summary>
/// A snapshot of the links of a <see cref="LinkStateDatabase"/> and what breadth-first searches
/// found on it (camcubeos 3.3): which servers are connected, and hop distances from the sources
/// searched so far. A graph never changes once made, except that searches are added on demand, so
/// any number of routing tables whose databases hold the same links may share it.
/// </summary>
/// <remarks>
/// Memory: the links (1 byte per server), the component of every server (4 bytes per server), a
/// reference per server to its search, a bitset per component asked for, and a distance array (2
/// bytes per server) per source searched: at most 2 x servers^2 bytes when every server is a source.
/// </remarks>
internal sealed class RoutingGraph
{
    /// <summary>The distance of a server that cannot be reached.</summary>
    public const ushort Unreached = ushort.MaxValue;

    private readonly TorusShape _shape;
    private readonly RoutingComputationCache _owner;
    private readonly byte[] _upLinks;
    private readonly int[] _component;
    private readonly int[] _neighbors;
    private readonly byte[] _peerBits = new byte[LinkDirections.Count];
    private readonly ulong[]?[] _members;
    private readonly ushort[]?[] _distances;

    public RoutingGraph(RoutingComputationCache owner, LinkStateDatabase database)
    {
        _owner = owner;
        Id = owner.NextGraphId();
        _shape = database.Shape;
        _upLinks = database.UpLinks.ToArray();
        Fingerprint = database.Fingerprint;
        DegradedCount = database.DegradedCount;
        _component = new int[_shape.ServerCount];
        _distances = new ushort[]?[_shape.ServerCount];
        _neighbors = NeighborTable.For(_shape);
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            _peerBits[d] = (byte)(1 << (int)_shape.PeerLink((LinkDirection)d));
        }

        _members = new ulong[]?[LabelComponents()];
    }

    /// <summary>Gets the fingerprint of the database the graph was made from.</summary>
    public ulong Fingerprint { get; }

    /// <summary>Gets this graph's number, unique in its cache, from 1: the tag of its roots in <see cref="RootCache"/>.</summary>
    public long Id { get; }

    /// <summary>Gets how many servers reported fewer than all their links up.</summary>
    public int DegradedCount { get; }

    /// <summary>Gets whether <paramref name="database"/> holds exactly this graph's links.</summary>
    public bool Matches(LinkStateDatabase database) =>
        database.Fingerprint == Fingerprint && database.DegradedCount == DegradedCount && database.UpLinks.SequenceEqual(_upLinks);

    /// <summary>Gets whether the link of <paramref name="server"/> in direction <paramref name="link"/> can carry traffic: both ends report it up.</summary>
    public bool IsUsable(int server, LinkDirection link, int neighbor, LinkDirection peerLink) =>
        (_upLinks[server] & (1 << (int)link)) != 0 && (_upLinks[neighbor] & (1 << (int)peerLink)) != 0;

    /// <summary>Gets the label of the component that holds <paramref name="server"/>: servers with the same label reach each other.</summary>
    public int ComponentOf(int server) => _component[server];

    /// <summary>
    /// Gets the servers connected to <paramref name="server"/> (itself included) as a bitset, bit i
    /// of word i / 64 for server i. Shared: the caller must not change it.
    /// </summary>
    public ulong[] ReachableFrom(int server)
    {
        var label = _component[server];
        if (_members[label] is { } members)
        {
            return members;
        }

        members = new ulong[(_shape.ServerCount + 63) / 64];
        for (var i = 0; i < _component.Length; i++)
        {
            if (_component[i] == label)
            {
                members[i >> 6] |= 1UL << (i & 63);
            }
        }

        _members[label] = members;
        return members;
    }

    /// <summary>
    /// Gets the hop distance from <paramref name="source"/> to every server (or
    /// <see cref="Unreached"/>), searching once per graph and source. Shared: the caller must not change it.
    /// </summary>
    public ushort[] DistancesFrom(int source)
    {
        return _distances[source] ?? SearchFrom(source);
    }

    private ushort[] SearchFrom(int source)
    {
        var distances = new ushort[_shape.ServerCount];
        Search(source, distances);
        _distances[source] = distances;
        _owner.SearchesRun++;
        return distances;
    }

    /// <summary>Gives every server the number of its connected component; returns how many there are.</summary>
    private int LabelComponents()
    {
        Array.Fill(_component, -1);
        var queue = _owner.SearchQueue;
        var count = 0;
        for (var start = 0; start < _component.Length; start++)
        {
            if (_component[start] >= 0)
            {
                continue;
            }

            var head = 0;
            var tail = 0;
            _component[start] = count;
            queue[tail++] = start;
            while (head < tail)
            {
                var index = queue[head++];
                var up = _upLinks[index];
                var row = index * LinkDirections.Count;
                for (var d = 0; d < LinkDirections.Count; d++)
                {
                    var neighbor = _neighbors[row + d];
                    if (neighbor < 0 || (up & (1 << d)) == 0)
                    {
                        continue;
                    }

                    if (_component[neighbor] < 0 && (_upLinks[neighbor] & _peerBits[d]) != 0)
                    {
                        _component[neighbor] = count;
                        queue[tail++] = neighbor;
                    }
                }
            }

            count++;
        }

        return count;
    }

    /// <summary>Breadth-first search over usable links from <paramref name="origin"/>, writing hop distances (or <see cref="Unreached"/>).</summary>
    private void Search(int origin, ushort[] distances)
    {
        var queue = _owner.SearchQueue;
        Array.Fill(distances, Unreached);
        distances[origin] = 0;
        var head = 0;
        var tail = 0;
        queue[tail++] = origin;
        while (head < tail)
        {
            var index = queue[head++];
            var up = _upLinks[index];
            var row = index * LinkDirections.Count;
            var next = (ushort)Math.Min(distances[index] + 1, Unreached - 1);
            for (var d = 0; d < LinkDirections.Count; d++)
            {
                var neighbor = _neighbors[row + d];
                if (neighbor < 0 || (up & (1 << d)) == 0)
                {
                    continue;
                }

                if (distances[neighbor] == Unreached && (_upLinks[neighbor] & _peerBits[d]) != 0)
                {
                    distances[neighbor] = next;
                    queue[tail++] = neighbor;
                }
            }
        }
    }
}
