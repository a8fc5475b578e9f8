using BenchmarkDotNet.Attributes;
using CamCube.Packets;
using CamCube.Runtime;
using CamCube.Runtime.Loops;
using CamCube.Services;

namespace CamCube.Benchmarks;

/// <summary>
/// The overhead experiment of symbiotic-routing 6, at one server S of a 3x3x3 cube: packets arrive
/// from S's six neighbours and S sends each on. Baseline: a service bounces the packet back to the
/// neighbour it came from with plain server routing. Extended: the packet is addressed to S's key
/// coordinate and carries |K| = 1, 2 or 3 key coordinates of other neighbours; a service on the
/// extended routing service whose F returns them sends it on. Per packet: receive, demultiplex,
/// decide, queue, poll, send. Goal: |K| = 3 costs at most 1.15x the baseline, 0 bytes per packet.
/// </summary>
[MemoryDiagnoser]
public class ExtendedRoutingOverheadBenchmarks
{
    /// <summary>Packets per invocation.</summary>
    public const int PacketCount = 6_000;

    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_self = new(1, 1, 1);

    private Node _node = null!;
    private DiscardTransport _transport = null!;
    private PacketPool _pool = null!;
    private DeterministicEventLoop _loop = null!;
    private byte[][] _keyLists = null!;

    /// <summary>Gets or sets the number of next key coordinates each packet carries (0 runs nothing; see the two benchmarks).</summary>
    [Params(1, 2, 3)]
    public int K { get; set; } = 1;

    /// <summary>Starts S on a discard transport and brings its links up with forged neighbour heartbeats.</summary>
    [GlobalSetup]
    public void Setup()
    {
        // The payload each arrival link's packets carry, built once. Both loops copy it into every
        // packet they feed in (as a sender would have written it), so the difference between them
        // is the runtime's work, not the writing of test packets.
        _keyLists = new byte[LinkDirections.Count][];
        for (var link = 0; link < LinkDirections.Count; link++)
        {
            var payload = new byte[1 + (KeyCoordinate.WireSizeBytes * K)];
            payload[0] = (byte)K;
            for (var k = 0; k < K; k++)
            {
                // Key coordinates of other neighbours than the sender: never back out of the arrival link.
                var target = s_shape.Neighbor(s_self, (LinkDirection)((link + 1 + k) % LinkDirections.Count));
                KeyCoordinate.At(target, 0).Write(payload.AsSpan(1 + (KeyCoordinate.WireSizeBytes * k)));
            }

            _keyLists[link] = payload;
        }

        _loop = new DeterministicEventLoop();
        _pool = new PacketPool();
        _transport = new DiscardTransport(s_shape, s_self);
        _node = new Node(_transport, _loop, _pool, new NodeOptions { PublishMetrics = false });
        _node.Register(new BounceService());
        _node.Register(new KeyListService());
        _node.Start();
        _loop.RunUntilIdle();
        _transport.ForgeNeighbourHeartbeats(_pool);

        _loop.RunUntilIdle();
        var sentBefore = _transport.FramesSent.Sum();
        for (var i = 0; i < 20; i++)
        {
            Baseline();
            Extended();
        }

        // The measurement means something only if every packet really went out.
        var sent = _transport.FramesSent.Sum() - sentBefore;
        if (_node.Counters.DroppedTotal != 0 || sent != 20L * PacketCount * 2)
        {
            throw new InvalidOperationException($"Setup check failed: {_node.Counters.DroppedTotal} packets dropped, {sent} of {40L * PacketCount} sent.");
        }
    }

    /// <summary>Bounces packets back to their sender with server routing.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = PacketCount)]
    public void Baseline()
    {
        for (var i = 0; i < PacketCount; i++)
        {
            var link = (LinkDirection)(i % LinkDirections.Count);
            var packet = _pool.Rent();
            _keyLists[(int)link].CopyTo(packet.PayloadArea);
            packet.PayloadLength = 64;
            packet.StampHeader(BounceService.Id, DestinationKind.Server, 16, s_shape.Neighbor(s_self, link), KeyCoordinate.At(s_self, 0));
            _transport.Sink.OnFrameReceived(link, packet);
        }
    }

    /// <summary>Sends packets on through the key coordinates they carry, with the extended routing service.</summary>
    [Benchmark(OperationsPerInvoke = PacketCount)]
    public void Extended()
    {
        for (var i = 0; i < PacketCount; i++)
        {
            var link = (LinkDirection)(i % LinkDirections.Count);
            var packet = _pool.Rent();
            _keyLists[(int)link].CopyTo(packet.PayloadArea);
            packet.PayloadLength = 64;
            packet.StampHeader(KeyListService.Id, DestinationKind.Key, 16, s_shape.Neighbor(s_self, link), KeyCoordinate.At(s_self, 0));
            _transport.Sink.OnFrameReceived(link, packet);
        }
    }

    /// <summary>The baseline service: sends every packet back to its source.</summary>
    public sealed class BounceService() : ServiceBase(Id, "bounce")
    {
        /// <summary>The service id.</summary>
        public const ushort Id = 0x0700;

        /// <inheritdoc/>
        public override bool OnDeliver(Packet packet)
        {
            Node.RouteToServer(packet, packet.Source);
            return true;
        }
    }

    /// <summary>The extended service: F returns the key coordinates listed in the packet.</summary>
    public sealed class KeyListService() : RoutedServiceBase(Id, "key-list", new RoutingQueueOptions(TimeSpan.FromSeconds(10)))
    {
        /// <summary>The service id.</summary>
        public const ushort Id = 0x0701;

        /// <inheritdoc/>
        public override int F(Packet packet, KeyCoordinate current, Span<KeyCoordinate> next)
        {
            var payload = packet.Payload;
            if (current.Home != Node.Self)
            {
                return 0;
            }

            int count = payload[0];
            for (var k = 0; k < count; k++)
            {
                next[k] = KeyCoordinate.Read(payload[(1 + (KeyCoordinate.WireSizeBytes * k))..]);
            }

            // Mark the packet done so that, arriving at the next server, it is not sent further.
            payload[0] = 0;
            return count;
        }
    }
}
