using CamCube.Packets;
using CamCube.Runtime;
using CamCube.Runtime.Loops;
using CamCube.Transport.InMemory;

namespace CamCube.Testing;

/// <summary>
/// A whole cube of real <see cref="Node"/>s on the in-memory transport, sharing one deterministic
/// event loop in virtual time: the place to test a service. Servers can be killed and restarted
/// and cables cut and repaired; <see cref="TrueReachability"/> is the global-knowledge oracle.
/// It has the shape of every test cube (<see cref="ITestCube"/>), as <see cref="SimulatedCube"/> does.
/// </summary>
public sealed class InMemoryCube : ITestCube
{
    private readonly Node?[] _nodes;
    private readonly bool[] _alive;
    private readonly Action<Node>? _configure;
    private readonly InMemoryCubeOptions _options;

    private InMemoryCube(TorusShape shape, Action<Node>? configure, InMemoryCubeOptions options)
    {
        Shape = shape;
        _configure = configure;
        _options = options;
        Loop = new DeterministicEventLoop();
        Network = new InMemoryNetwork(shape, Loop, options.LinkCapacityFrames);
        Pool = new PacketPool(options.PacketCapacityBytes);
        _nodes = new Node?[shape.ServerCount];
        _alive = new bool[shape.ServerCount];
    }

    /// <summary>Gets the shape.</summary>
    public TorusShape Shape { get; }

    /// <summary>Gets the loop every node runs on.</summary>
    public DeterministicEventLoop Loop { get; }

    /// <summary>Gets the virtual clock.</summary>
    public ManualTimeProvider Clock => Loop.Clock;

    /// <summary>Gets the virtual time since the cube was made.</summary>
    public TimeSpan Elapsed => Loop.Clock.Elapsed;

    /// <summary>Gets the wiring, for failures and counters.</summary>
    public InMemoryNetwork Network { get; }

    /// <summary>Gets the packet pool all nodes share.</summary>
    public PacketPool Pool { get; }

    /// <summary>Gets the node at <paramref name="server"/> (the newest one after a restart).</summary>
    public Node this[Coordinate server] => _nodes[Shape.IndexOf(server)] ?? throw new InvalidOperationException($"No node was created at {server}.");

    /// <summary>Gets the nodes that are alive.</summary>
    public IEnumerable<Node> LiveNodes
    {
        get
        {
            for (var i = 0; i < _nodes.Length; i++)
            {
                if (_alive[i])
                {
                    yield return _nodes[i]!;
                }
            }
        }
    }

    /// <summary>
    /// Creates and starts a cube: one node per server, each passed to <paramref name="configure"/>
    /// (to register services) before it starts, then runs until every link is up.
    /// </summary>
    /// <exception cref="TimeoutException">The links did not all come up within 10 virtual seconds.</exception>
    public static InMemoryCube Start(TorusShape shape, Action<Node>? configure = null, InMemoryCubeOptions? options = null)
    {
        var cube = new InMemoryCube(shape, configure, options ?? new InMemoryCubeOptions());
        for (long i = 0; i < shape.ServerCount; i++)
        {
            cube.StartNode(shape.CoordinateAt(i));
        }

        if (!cube.RunUntil(cube.AllLinksUp, TimeSpan.FromSeconds(10)))
        {
            throw new TimeoutException($"The links of the {shape} cube did not all come up within 10 virtual seconds.");
        }

        return cube;
    }

    /// <summary>Gets whether the server at <paramref name="server"/> is alive.</summary>
    public bool IsAlive(Coordinate server) => _alive[Shape.IndexOf(server)];

    /// <summary>Kills a server now, as a crash: its node stops and frames to it are lost. Returns false if it was dead already.</summary>
    public bool Kill(Coordinate server)
    {
        var index = Shape.IndexOf(server);
        if (!_alive[index])
        {
            return false;
        }

        _alive[index] = false;
        _nodes[index]!.Stop();
        Loop.RunUntilIdle();
        return true;
    }

    /// <summary>Restarts a killed server with a fresh node (fresh state), configured as at the start.</summary>
    public Node Restart(Coordinate server)
    {
        if (IsAlive(server))
        {
            throw new InvalidOperationException($"Server {server} is alive; kill it before restarting it.");
        }

        return StartNode(server);
    }

    /// <summary>Runs the loop until nothing is left to do at the current virtual time.</summary>
    public void RunUntilIdle() => Loop.RunUntilIdle();

    /// <summary>Runs for <paramref name="duration"/> of virtual time.</summary>
    public void RunFor(TimeSpan duration) => Loop.RunFor(duration);

    /// <summary>Runs until <paramref name="condition"/> holds or <paramref name="timeout"/> of virtual time passes; returns whether it held.</summary>
    public bool RunUntil(Func<bool> condition, TimeSpan timeout) => Loop.RunUntil(condition, timeout);

    /// <summary>Gets whether every live node has every link to a live neighbour up.</summary>
    public bool AllLinksUp()
    {
        foreach (var node in LiveNodes)
        {
            for (var d = 0; d < LinkDirections.Count; d++)
            {
                var link = (LinkDirection)d;
                if (Shape.HasLink(link) && IsAlive(Shape.Neighbor(node.Self, link)) && !node.IsLinkUp(link))
                {
                    return false;
                }
            }
        }

        return true;
    }

    /// <summary>
    /// The oracle: which servers <paramref name="from"/> can really reach, over live servers and
    /// uncut cables, computed with global knowledge.
    /// </summary>
    public ReachabilityView TrueReachability(Coordinate from) =>
        ReachabilityView.FromGraph(Shape, from, IsAlive, Network.IsCut);

    /// <summary>Gets the true root of <paramref name="key"/>: the first live server of its walk (camcubeos 3.2).</summary>
    /// <exception cref="InvalidOperationException">No server is alive.</exception>
    public Coordinate TrueRoot(KeyCoordinate key)
    {
        var live = new ReachabilityView(Shape);
        for (long i = 0; i < Shape.ServerCount; i++)
        {
            live.SetReachable(Shape.CoordinateAt(i), _alive[i]);
        }

        return KeySpace.For(Shape).TryGetRoot(key, live, out var root) ? root : throw new InvalidOperationException("No server is alive.");
    }

    /// <summary>Gets whether every live node's reachability view equals the oracle's.</summary>
    public bool ViewsConverged()
    {
        foreach (var node in LiveNodes)
        {
            var truth = TrueReachability(node.Self);
            if (node.Reachability.ReachableCount != truth.ReachableCount)
            {
                return false;
            }

            for (long i = 0; i < Shape.ServerCount; i++)
            {
                var c = Shape.CoordinateAt(i);
                if (node.Reachability.IsReachable(c) != truth.IsReachable(c))
                {
                    return false;
                }
            }
        }

        return true;
    }

    private Node StartNode(Coordinate server)
    {
        var index = Shape.IndexOf(server);
        var transport = Network.CreateTransport(server);
        var node = new Node(transport, Loop, Pool, _options.CreateNodeOptions(), _options.LoggerFactory);
        _configure?.Invoke(node);
        _nodes[index] = node;
        _alive[index] = true;
        node.Start();
        Loop.RunUntilIdle();
        return node;
    }
}
