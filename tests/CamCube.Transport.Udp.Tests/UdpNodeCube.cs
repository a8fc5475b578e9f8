using CamCube.Packets;
using CamCube.Runtime;
using CamCube.Services;

namespace CamCube.Transport.Udp.Tests;

/// <summary>
/// Real <see cref="Node"/>s over UDP on 127.0.0.1, each on its own <see cref="UdpEventLoop"/> thread:
/// the runtime API's cases on the UDP transport. Disposing stops the nodes and their loops.
/// </summary>
internal sealed class UdpNodeCube : IDisposable
{
    private const int SendsMax = 5;

    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(20);
    private static readonly TimeSpan s_resendAfter = TimeSpan.FromSeconds(4);

    private readonly UdpEventLoop?[] _loops;
    private readonly Node?[] _nodes;

    private UdpNodeCube(TorusShape shape)
    {
        Shape = shape;
        _loops = new UdpEventLoop?[shape.ServerCount];
        _nodes = new Node?[shape.ServerCount];
    }

    public TorusShape Shape { get; }

    public Node this[Coordinate server] => _nodes[Shape.IndexOf(server)] ?? throw new InvalidOperationException($"No node runs at {server}.");

    /// <summary>
    /// The nodes' options unless a test gives its own: no metrics, and a heartbeat timeout of 2 s
    /// rather than 350 ms. These tests run beside the rest of the assembly on 2 shared cores, where a
    /// node's loop can stall for longer than 350 ms; a link judged down for a moment would drop a
    /// test's one packet or move its keys, which is the failure detector's business, not theirs.
    /// </summary>
    public static NodeOptions DefaultOptions() => new() { PublishMetrics = false, HeartbeatTimeout = TimeSpan.FromSeconds(2) };

    /// <summary>Starts a node per server, each passed to <paramref name="configure"/> first, and waits until every view is whole.</summary>
    public static UdpNodeCube Start(TorusShape shape, Action<Node> configure, Func<NodeOptions>? options = null)
    {
        var cube = new UdpNodeCube(shape);
        try
        {
            var addressing = UdpPeerAddressing.FromBasePort(TestCube.FindFreeBasePort((int)shape.ServerCount));
            for (long i = 0; i < shape.ServerCount; i++)
            {
                var self = shape.CoordinateAt(i);
                var loop = new UdpEventLoop($"node {self}");
                var pool = new PacketPool(2048);
                var transport = new UdpLinkTransport(shape, self, loop, pool, new UdpTransportOptions { Addressing = addressing, ClusterKey = TestCube.Key });
                var node = new Node(transport, loop, pool, options?.Invoke() ?? DefaultOptions());
                LoopAction.Run(loop, () => configure(node));
                cube._loops[i] = loop;
                cube._nodes[i] = node;
                node.Start();
            }

            cube.WaitUntil(cube.ViewsWhole);
            return cube;
        }
        catch
        {
            cube.Dispose();
            throw;
        }
    }

    /// <summary>Runs <paramref name="function"/> on the loop of <paramref name="server"/>'s node.</summary>
    public T On<T>(Coordinate server, Func<Node, T> function)
    {
        var node = this[server];
        return LoopAction.Run(_loops[Shape.IndexOf(server)]!, () => function(node));
    }

    /// <summary>Stops the node at <paramref name="server"/> as a crash would, and its loop.</summary>
    public void Kill(Coordinate server)
    {
        var i = Shape.IndexOf(server);
        if (_nodes[i] is { } node)
        {
            LoopAction.Run(_loops[i]!, node.Stop);
            _loops[i]!.Dispose();
            _nodes[i] = null;
            _loops[i] = null;
        }
    }

    /// <summary>Waits, spinning and then sleeping briefly between checks, until <paramref name="condition"/> holds.</summary>
    /// <exception cref="TimeoutException">It did not hold within 20 s.</exception>
    public void WaitUntil(Func<bool> condition)
    {
        if (!SpinWait.SpinUntil(condition, s_timeout))
        {
            throw new TimeoutException("The UDP cube did not reach the condition within 20 s.");
        }
    }

    /// <summary>
    /// Runs <paramref name="send"/> (a best-effort packet, which UDP on a busy host may lose) until
    /// <paramref name="arrived"/> holds within 4 s of a send, at most five times.
    /// </summary>
    /// <returns>How many times it sent.</returns>
    public static int SendUntil(Action send, Func<bool> arrived)
    {
        var sent = 0;
        do
        {
            send();
            sent++;
        }
        while (!SpinWait.SpinUntil(arrived, s_resendAfter) && sent < SendsMax);

        return sent;
    }

    /// <summary>Describes what each live node dropped, by reason, for a failure message.</summary>
    public string DescribeDrops()
    {
        var lines = new List<string>();
        foreach (var node in _nodes)
        {
            if (node is not null)
            {
                var drops = On(node.Self, n => Enum.GetValues<DropReason>()
                    .Select(r => (Reason: r, Count: n.Counters.Dropped(r)))
                    .Where(d => d.Count > 0)
                    .Select(d => $"{d.Reason} {d.Count}")
                    .ToArray());
                lines.Add($"{node.Self}: {string.Join(", ", drops.DefaultIfEmpty("nothing dropped"))}");
            }
        }

        return string.Join("; ", lines);
    }

    /// <summary>Gets whether every live node sees exactly the live servers as reachable.</summary>
    public bool ViewsWhole()
    {
        var live = _nodes.Count(n => n is not null);
        for (long i = 0; i < _nodes.Length; i++)
        {
            if (_nodes[i] is { } node && On(node.Self, n => n.Reachability.ReachableCount) != live)
            {
                return false;
            }
        }

        return true;
    }

    public void Dispose()
    {
        for (var i = 0; i < _nodes.Length; i++)
        {
            if (_nodes[i] is not null)
            {
                Kill(Shape.CoordinateAt(i));
            }
        }
    }
}
