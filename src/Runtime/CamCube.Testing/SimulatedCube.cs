using CamCube.Packets;
using CamCube.Runtime;
using CamCube.Runtime.Routing;
using CamCube.Transport;
using CamCube.Transport.Faults;
using CamCube.Transport.Simulation;

namespace CamCube.Testing;

/// <summary>
/// A whole cube of real <see cref="Node"/>s on a <see cref="SimulatedNetwork"/>, all in virtual
/// time on one <see cref="SimulationEngine"/> (camcubeos 4.1: the same code as on the testbed).
/// Servers can be killed and restarted and cables cut and repaired; <see cref="LiveServers"/> and
/// <see cref="TrueRoot"/> are the global-knowledge oracle. It has the shape of every test cube
/// (<see cref="ITestCube"/>), as <see cref="InMemoryCube"/> does: <see cref="Start"/> makes and
/// starts one; the constructor and <see cref="StartAll"/> are for a run that kills servers before
/// they start.
/// </summary>
/// <remarks>
/// Memory: per node, the runtime's own state (its link-state database keeps 5 bytes per server
/// and its reachability view a bit, so it is linear in the number of servers per node and
/// quadratic overall) plus the network's few hundred bytes. The breadth-first searches of
/// link-state routing are shared: one <see cref="RoutingComputationCache"/> for all nodes, so a
/// search runs once per distinct database, not once per node.
/// </remarks>
public sealed class SimulatedCube : ITestCube
{
    private readonly Node?[] _nodes;
    private readonly FaultInjectingTransport?[] _faults;
    private readonly Action<Node>? _configure;
    private readonly ReachabilityView _liveServers;
    private readonly KeySpace _keySpace;
    private readonly RoutingComputationCache? _routingComputations;

    /// <summary>Creates the engine, the network and the packet pool of a cube; no node runs until <see cref="StartAll"/> (<see cref="Start"/> does both).</summary>
    /// <param name="shape">The torus.</param>
    /// <param name="configure">Called with every node (also a restarted one) before it starts, to register services.</param>
    /// <param name="options">Settings; defaults if null.</param>
    public SimulatedCube(TorusShape shape, Action<Node>? configure = null, SimulatedCubeOptions? options = null)
    {
        Options = options ?? new SimulatedCubeOptions();
        Shape = shape;
        _configure = configure;
        Engine = new SimulationEngine(Options.Seed, initialCapacity: (int)Math.Min(1 << 20, shape.ServerCount * 16));
        Network = new SimulatedNetwork(Engine, shape, Options.Network);
        // The whole cube runs on the engine's thread, so its pool takes no lock.
        Pool = new PacketPool(Options.Network.MtuBytes, Options.PooledPacketsMax, singleThreaded: true);
        _nodes = new Node?[Network.ServerCount];
        _faults = new FaultInjectingTransport?[Network.ServerCount];
        _liveServers = new ReachabilityView(shape);
        _keySpace = KeySpace.For(shape);
        _routingComputations = Options.ShareRoutingComputations ? new RoutingComputationCache(shape) : null;
    }

    /// <summary>Gets the virtual time since the cube was made.</summary>
    public TimeSpan Elapsed => Engine.Elapsed;

    /// <summary>Gets the nodes of the live servers, in server index order.</summary>
    public IEnumerable<Node> LiveNodes
    {
        get
        {
            for (var i = 0; i < _nodes.Length; i++)
            {
                if (_nodes[i] is { } node && _liveServers.IsReachable(Shape.CoordinateAt(i)))
                {
                    yield return node;
                }
            }
        }
    }

    /// <summary>Gets the settings.</summary>
    public SimulatedCubeOptions Options { get; }

    /// <summary>Gets the torus.</summary>
    public TorusShape Shape { get; }

    /// <summary>Gets the engine: every node's clock and loop.</summary>
    public SimulationEngine Engine { get; }

    /// <summary>Gets the links.</summary>
    public SimulatedNetwork Network { get; }

    /// <summary>Gets the pool every node's packets come from.</summary>
    public PacketPool Pool { get; }

    /// <summary>Gets the link-state searches the nodes share, or null if <see cref="SimulatedCubeOptions.ShareRoutingComputations"/> is off.</summary>
    public RoutingComputationCache? RoutingComputations => _routingComputations;

    /// <summary>Gets the oracle's view of which servers are alive (it ignores cut cables).</summary>
    public IReachabilityView LiveServers => _liveServers;

    /// <summary>Gets the node at <paramref name="server"/>: the newest one after a restart.</summary>
    /// <exception cref="InvalidOperationException">No node was started there.</exception>
    public Node this[Coordinate server] => _nodes[Shape.IndexOf(server)] ?? throw new InvalidOperationException($"No node was started at {server}.");

    /// <summary>
    /// Creates and starts a cube: one node per server, each passed to <paramref name="configure"/>
    /// (to register services) before it starts; returns when every link is up and the routes have
    /// settled (<see cref="SimulatedCubeOptions.SettleTime"/>).
    /// </summary>
    /// <param name="shape">The torus.</param>
    /// <param name="configure">Called with every node (also a restarted one) before it starts, to register services.</param>
    /// <param name="options">Settings; defaults if null.</param>
    /// <exception cref="TimeoutException">The links did not all come up within 10 virtual seconds.</exception>
    public static SimulatedCube Start(TorusShape shape, Action<Node>? configure = null, SimulatedCubeOptions? options = null)
    {
        var cube = new SimulatedCube(shape, configure, options);
        cube.StartAll();
        return cube;
    }

    /// <summary>
    /// Creates, configures and starts a node on every live server that has none, runs until every
    /// link between live servers is up, then for <see cref="SimulatedCubeOptions.SettleTime"/>.
    /// </summary>
    /// <exception cref="TimeoutException">The links did not all come up within 10 virtual seconds.</exception>
    public void StartAll()
    {
        for (var i = 0; i < _nodes.Length; i++)
        {
            if (_nodes[i] is null && _liveServers.IsReachable(Shape.CoordinateAt(i)))
            {
                StartNode(i);
            }
        }

        if (!Engine.RunUntil(AllLinksUp, Engine.Elapsed + TimeSpan.FromSeconds(10)))
        {
            throw new TimeoutException($"The links of the {Shape} cube did not all come up within 10 virtual seconds.");
        }

        Engine.RunFor(Options.SettleTime);
    }

    /// <summary>Gets the fault decorator of the node at <paramref name="server"/> (its counters tell what it did), or null if <see cref="SimulatedCubeOptions.Faults"/> is none.</summary>
    public FaultInjectingTransport? FaultsAt(Coordinate server) => _faults[Shape.IndexOf(server)];

    /// <summary>Gets whether the server at <paramref name="server"/> is alive.</summary>
    public bool IsAlive(Coordinate server) => _liveServers.IsReachable(server);

    /// <summary>
    /// Kills a server now, as a crash: its links fail at once (see
    /// <see cref="SimulatedNetwork.KillServer"/>) and its node stops. Before <see cref="StartAll"/>,
    /// the server simply never starts. Returns false if it was dead already.
    /// </summary>
    public bool Kill(Coordinate server)
    {
        if (!Network.KillServer(server))
        {
            return false;
        }

        _liveServers.SetReachable(server, reachable: false);
        _nodes[Shape.IndexOf(server)]?.Stop();
        return true;
    }

    /// <summary>
    /// Cuts every cable of <paramref name="server"/> (<paramref name="cutOff"/> true), so that it lives
    /// on cut off from all the others, a partition of one; or restores them.
    /// </summary>
    public void SetCutOff(Coordinate server, bool cutOff)
    {
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            var link = (LinkDirection)d;
            if (Shape.HasLink(link))
            {
                _ = cutOff ? Network.CutLink(server, link) : Network.RestoreLink(server, link);
            }
        }
    }

    /// <summary>Restarts a killed server with a fresh node, configured as at the start, and returns it.</summary>
    /// <exception cref="InvalidOperationException">The server is alive.</exception>
    public Node Restart(Coordinate server)
    {
        Network.RestartServer(server);
        _liveServers.SetReachable(server, reachable: true);
        return StartNode((int)Shape.IndexOf(server));
    }

    /// <summary>Runs every event due at the current virtual time, also those they post for now.</summary>
    public void RunUntilIdle() => Engine.RunDueNow();

    /// <summary>Runs for <paramref name="duration"/> of virtual time.</summary>
    public void RunFor(TimeSpan duration) => Engine.RunFor(duration);

    /// <summary>
    /// Runs until <paramref name="condition"/> holds or <paramref name="timeout"/> of virtual time
    /// passes from now; returns whether it held. (<see cref="SimulationEngine.RunUntil"/> takes an
    /// absolute limit instead.)
    /// </summary>
    public bool RunUntil(Func<bool> condition, TimeSpan timeout) => Engine.RunUntil(condition, Engine.Elapsed + timeout);

    /// <summary>Gets the true root of <paramref name="key"/>: the first live server of its walk (camcubeos 3.2).</summary>
    public Coordinate TrueRoot(KeyCoordinate key) =>
        _keySpace.TryGetRoot(key, _liveServers, out var root) ? root : throw new InvalidOperationException("No server is alive.");

    /// <summary>Gets whether every live node has its link to every live neighbour over an uncut cable up.</summary>
    public bool AllLinksUp()
    {
        for (var i = 0; i < _nodes.Length; i++)
        {
            var self = Shape.CoordinateAt(i);
            var node = _nodes[i];
            if (node is null || !_liveServers.IsReachable(self))
            {
                continue;
            }

            for (var d = 0; d < LinkDirections.Count; d++)
            {
                var link = (LinkDirection)d;
                if (Shape.HasLink(link) && !Network.IsLinkCut(self, link) && _liveServers.IsReachable(Shape.Neighbor(self, link)) && !node.IsLinkUp(link))
                {
                    return false;
                }
            }
        }

        return true;
    }

    /// <summary>
    /// Gets which servers <paramref name="from"/> can really reach, over live servers and uncut
    /// cables, computed with global knowledge.
    /// </summary>
    public ReachabilityView TrueReachability(Coordinate from) =>
        ReachabilityView.FromGraph(Shape, from, IsAlive, Network.IsLinkCut);

    /// <summary>Gets whether every live node's reachability view equals the oracle's.</summary>
    public bool ViewsConverged()
    {
        for (var i = 0; i < _nodes.Length; i++)
        {
            var self = Shape.CoordinateAt(i);
            if (_nodes[i] is not { } node || !IsAlive(self))
            {
                continue;
            }

            var truth = TrueReachability(self);
            for (long j = 0; j < Shape.ServerCount; j++)
            {
                var c = Shape.CoordinateAt(j);
                if (node.Reachability.IsReachable(c) != truth.IsReachable(c))
                {
                    return false;
                }
            }
        }

        return true;
    }

    private Node StartNode(int index)
    {
        ILinkTransport transport = Network.GetTransport(index);
        if (Options.Faults != FaultOptions.None)
        {
            // Streams from 1,000,000 up are the decorators': apart from the nodes' own.
            transport = _faults[index] = new FaultInjectingTransport(transport, Engine, Engine.CreateRandom(1_000_000 + index), Pool) { Faults = Options.Faults };
        }

        var options = Options.CreateNodeOptions();
        options.RoutingComputations ??= _routingComputations;
        var node = new Node(transport, Engine, Pool, options, Options.LoggerFactory);
        _configure?.Invoke(node);
        _nodes[index] = node;
        node.Start();
        return node;
    }
}
