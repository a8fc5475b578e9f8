using CamCube.Runtime;
using CamCube.Runtime.Routing;
using CamCube.Services;
using CamCube.Services.Cache;
using CamCube.Services.Diagnostics;
using CamCube.Testing;
using CamCube.Transport;

namespace CamCube.Fuzz.Targets;

/// <summary>
/// A fresh 3x3x2 cube in virtual time (axes of 3 and an axis of 2, whose two links lead to one neighbour) with the services a `camcube node` runs (ping, key probe,
/// link benchmark, cache), into whose nodes the packet targets hand frames as their transports
/// would. A frame a node drops as malformed, unknown or unroutable is the documented rejection;
/// a service or routing function that throws for it, or an exception a node logs, is a finding.
/// </summary>
#pragma warning disable CA1001 // The log holds nothing to dispose; it is a logger factory only to be handed to the cube.
internal sealed class FrameCube
#pragma warning restore CA1001
{
    private static readonly TorusShape s_shape = new(3, 3, 2);
    private readonly ExceptionLog _log = new();
    private readonly InMemoryCube _cube;

    public FrameCube()
        : this(n =>
        {
            n.Register(new PingService());
            n.Register(new KeyProbeService());
            n.Register(new LinkBenchmarkService());
            n.Register(new CacheService());
        })
    {
    }

    /// <summary>A cube of the same shape whose nodes run what <paramref name="configure"/> registers instead.</summary>
    public FrameCube(Action<Node> configure)
    {
        var routing = new RoutingComputationCache(s_shape);
        _cube = InMemoryCube.Start(
            s_shape,
            configure,
            new InMemoryCubeOptions
            {
                LoggerFactory = _log,

                // Slow heartbeats and one routing computation for all nodes: the cube starts and
                // settles in fewer events, so the fuzzer runs more inputs.
                NodeOptions = () => new NodeOptions { PublishMetrics = false, HeartbeatInterval = TimeSpan.FromSeconds(1), HeartbeatTimeout = TimeSpan.FromSeconds(4), RoutingComputations = routing },
            });
    }

    /// <summary>How long the cube runs on after the last frame: past a cache request's time-out (5 s) and the sweep after it.</summary>
    public static readonly TimeSpan SettleTime = TimeSpan.FromSeconds(6);

    public static TorusShape Shape => s_shape;

    public int PacketCapacityBytes => _cube.Pool.PacketCapacityBytes;

    /// <summary>Gets the node at <paramref name="server"/>, to call its services on the loop between frames.</summary>
    public Node this[Coordinate server] => _cube[server];

    /// <summary>Runs the cube for <paramref name="duration"/> of virtual time between frames.</summary>
    public void RunFor(TimeSpan duration) => _cube.RunFor(duration);

    /// <summary>The server the control byte names (its high bits) and the link it names (its low bits).</summary>
    public static (Coordinate Server, LinkDirection Link) Address(byte control) =>
        (s_shape.CoordinateAt((control >> 3) % s_shape.ServerCount), (LinkDirection)((control & 7) % LinkDirections.Count));

    /// <summary>Hands <paramref name="frame"/> (cut to a packet's capacity, as a transport would refuse more) to <paramref name="server"/> as arrived on <paramref name="link"/>, and runs the cube until idle.</summary>
    public void Deliver(Coordinate server, LinkDirection link, ReadOnlySpan<byte> frame)
    {
        var packet = _cube.Pool.Rent();
        var length = Math.Min(frame.Length, packet.Capacity);
        frame[..length].CopyTo(packet.Buffer);
        packet.Length = length;
        ((ITransportSink)_cube[server]).OnFrameReceived(link, packet);
        _cube.RunUntilIdle();
    }

    /// <summary>Runs the cube on for <paramref name="duration"/> of virtual time (answers, retries, time-outs), then checks every node.</summary>
    /// <exception cref="FuzzFindingException">A service threw, or a node logged an exception.</exception>
    public void Settle(string target, TimeSpan duration)
    {
        _cube.RunFor(duration);
        _log.ThrowIfAny(target);
        foreach (var node in _cube.LiveNodes)
        {
            var faults = node.Counters.Dropped(DropReason.ServiceFault) + node.Counters.Dropped(DropReason.RoutingFunctionFault);
            if (faults > 0)
            {
                throw new FuzzFindingException($"{target}: a service or routing function threw on node {node.Self} ({faults} packets dropped as faults).");
            }
        }
    }
}
