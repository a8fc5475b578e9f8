namespace CamCube.Runtime.Routing;

/// <summary>
/// Shares link-state routing's breadth-first searches (camcubeos 3.3) among the nodes of one
/// process whose link-state databases hold the same links. In the simulator every live node
/// converges to the same database after a change, so without sharing the same searches would run
/// once per node; with it they run once per distinct database. A node whose database differs (a
/// flood has not reached it yet) gets a graph of its own: graphs are matched on every server's
/// links, never on a hash alone.
/// </summary>
/// <remarks>
/// <para>Not thread-safe: share one cache only among nodes that run on one thread, as the
/// simulator's nodes do. Nodes without a cache (<see cref="NodeOptions.RoutingComputations"/>
/// null, as on UDP) each keep a private one that holds one graph.</para>
/// <para>Memory: at most <see cref="GraphsMax"/> graphs are kept, the most recently used; each
/// holds up to 2 x servers^2 bytes of distances (512 KiB for 512 servers, 128 MiB for 8,000) once
/// every server has been a search source. A node keeps using the graph it got until its database
/// changes, so an evicted graph lives on until no node uses it.</para>
/// </remarks>
public sealed class RoutingComputationCache
{
    /// <summary>The default number of graphs kept: the converged database and a few that floods pass through.</summary>
    public const int GraphsMaxDefault = 8;

    private readonly List<RoutingGraph> _graphs = [];
    private RootCache? _roots;
    private long _graphIds;

    /// <summary>Creates an empty cache for nodes of <paramref name="shape"/>.</summary>
    /// <param name="shape">The torus of every node that uses the cache.</param>
    /// <param name="graphsMax">How many graphs to keep, the most recently used; at least 1.</param>
    /// <exception cref="ArgumentException">The shape is <c>default</c>.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="graphsMax"/> is less than 1.</exception>
    public RoutingComputationCache(TorusShape shape, int graphsMax = GraphsMaxDefault)
    {
        if (!shape.IsValid)
        {
            throw new ArgumentException("The shape is not initialised (default(TorusShape)).", nameof(shape));
        }

        ArgumentOutOfRangeException.ThrowIfLessThan(graphsMax, 1);
        Shape = shape;
        GraphsMax = graphsMax;
        SearchQueue = new int[shape.ServerCount];
    }

    /// <summary>Gets the torus of the nodes that use the cache.</summary>
    public TorusShape Shape { get; }

    /// <summary>Gets how many graphs the cache keeps.</summary>
    public int GraphsMax { get; }

    /// <summary>Gets how many graphs were made: databases not found in the cache.</summary>
    public long GraphsBuilt { get; private set; }

    /// <summary>Gets how many times a node's database was found in the cache.</summary>
    public long GraphsShared { get; private set; }

    /// <summary>Gets how many breadth-first searches for distances ran, over all graphs.</summary>
    public long SearchesRun { get; internal set; }

    /// <summary>Gets the scratch queue of every search (the cache is single-threaded).</summary>
    internal int[] SearchQueue { get; }

    /// <summary>Gets the roots of keys with an unreachable home, shared by the nodes of this cache (4,096 entries when shared, 64 when private).</summary>
    internal RootCache Roots => _roots ??= new RootCache(GraphsMax > 1 ? 12 : 6);

    /// <summary>Numbers a new graph.</summary>
    internal long NextGraphId() => ++_graphIds;

    /// <summary>Gets the graph of <paramref name="database"/>'s links: a kept one if its links are the same, else a new one.</summary>
    internal RoutingGraph GetGraph(LinkStateDatabase database)
    {
        if (database.Shape != Shape)
        {
            throw new ArgumentException($"The cache is for the torus {Shape}, not {database.Shape}.", nameof(database));
        }

        for (var i = 0; i < _graphs.Count; i++)
        {
            var graph = _graphs[i];
            if (graph.Matches(database))
            {
                // Most recently used first: the converged graph stays in while floods come and go.
                _graphs.RemoveAt(i);
                _graphs.Insert(0, graph);
                GraphsShared++;
                return graph;
            }
        }

        var made = new RoutingGraph(this, database);
        GraphsBuilt++;
        if (_graphs.Count == GraphsMax)
        {
            _graphs.RemoveAt(_graphs.Count - 1);
        }

        _graphs.Insert(0, made);
        return made;
    }
}
