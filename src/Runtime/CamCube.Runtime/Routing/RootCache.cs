namespace CamCube.Runtime.Routing;

/// <summary>
/// Roots of keys whose home is unreachable, shared by the nodes of one
/// <see cref="RoutingComputationCache"/>: a node's reachability view is the component of its graph
/// that holds it, so every node whose view is the same component of the same graph has the same
/// roots. A packet resolves its key at every hop, mostly at nodes with the same graph, so after its
/// first hop its key's root is usually here. Direct-mapped; an entry is tagged with its graph's
/// <see cref="RoutingGraph.Id"/> and the component, so a new graph invalidates nothing explicitly.
/// </summary>
/// <param name="bits">Log2 of the number of entries.</param>
internal sealed class RootCache(int bits)
{
    private readonly Entry[] _entries = new Entry[1 << bits];

    /// <summary>Gets the root of <paramref name="key"/> in component <paramref name="component"/> of graph <paramref name="graph"/>, if it is here.</summary>
    public bool TryGet(KeyCoordinate key, long graph, int component, out Coordinate root)
    {
        ref readonly var entry = ref _entries[IndexOf(key)];
        if (entry.Graph == graph && entry.Component == component && entry.Key == key)
        {
            root = entry.Root;
            return true;
        }

        root = default;
        return false;
    }

    /// <summary>Keeps the root of <paramref name="key"/> in component <paramref name="component"/> of graph <paramref name="graph"/> (ids from 1).</summary>
    public void Set(KeyCoordinate key, long graph, int component, Coordinate root) =>
        _entries[IndexOf(key)] = new Entry(key, root, graph, component);

    private int IndexOf(KeyCoordinate key) => (int)(((uint)key.GetHashCode() * 0x9E3779B9u) >> (32 - bits));

    /// <summary>A cached root; graph 0 marks an empty entry.</summary>
    private readonly record struct Entry(KeyCoordinate Key, Coordinate Root, long Graph, int Component);
}
