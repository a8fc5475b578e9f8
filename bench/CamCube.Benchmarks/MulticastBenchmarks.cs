using BenchmarkDotNet.Attributes;
using CamCube.Packets;
using CamCube.Runtime;
using CamCube.Runtime.Loops;
using CamCube.Services;

namespace CamCube.Benchmarks;

/// <summary>
/// A multicast tree's inner node (issue 15): server S of a 3x3x3 cube sends each chunk to its six
/// neighbours. Baseline: a copy of the packet per child, routed with <see cref="INodeContext.RouteToServer"/>.
/// Shared: one buffer, <see cref="INodeContext.Transmit"/>, a 22-byte header per child. Both copy each
/// frame onto the wire (<see cref="DiscardTransport"/> with its copy onto the wire, as UDP does). Results are per six-child send.
/// Goal: 0 bytes per send, shared faster than copying as chunks grow.
/// </summary>
[MemoryDiagnoser]
public class MulticastBenchmarks
{
    /// <summary>Six-child sends per invocation.</summary>
    public const int SendCount = 1_000;

    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_self = new(1, 1, 1);

    private readonly Coordinate[] _children = new Coordinate[LinkDirections.Count];
    private Node _node = null!;
    private DiscardTransport _transport = null!;
    private DeterministicEventLoop _loop = null!;
    private PacketPool _pool = null!;
    private FanOutService _service = null!;

    /// <summary>Gets or sets the chunk's payload size in bytes.</summary>
    [Params(64, 1_024, 8_192)]
    public int PayloadBytes { get; set; } = 1_024;

    /// <summary>Starts S on a transport that copies frames onto the wire and brings its links up with forged neighbour heartbeats.</summary>
    [GlobalSetup]
    public void Setup()
    {
        _loop = new DeterministicEventLoop();
        _pool = new PacketPool();
        _transport = new DiscardTransport(s_shape, s_self, copyToWire: true);
        _node = new Node(_transport, _loop, _pool, new NodeOptions { PublishMetrics = false });
        _service = new FanOutService();
        _node.Register(_service);
        _node.Start();
        _loop.RunUntilIdle();
        _transport.ForgeNeighbourHeartbeats(_pool);
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            _children[d] = s_shape.Neighbor(s_self, (LinkDirection)d);
        }

        _loop.RunUntilIdle();
        var sentBefore = _transport.FramesSent.Sum();
        for (var i = 0; i < 20; i++)
        {
            CopyPerChild();
            SharedBuffer();
        }

        // The measurement means something only if every frame really went out.
        var sent = _transport.FramesSent.Sum() - sentBefore;
        if (_node.Counters.DroppedTotal != 0 || sent != 40L * SendCount * LinkDirections.Count)
        {
            throw new InvalidOperationException($"Setup check failed: {_node.Counters.DroppedTotal} packets dropped, {sent} of {40L * SendCount * LinkDirections.Count} frames sent.");
        }
    }

    /// <summary>A copy of the chunk per child, each routed on its own.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = SendCount)]
    public void CopyPerChild()
    {
        for (var i = 0; i < SendCount; i++)
        {
            _service.SendCopies(_children, PayloadBytes);
        }

        _loop.RunUntilIdle();
    }

    /// <summary>One buffer for every child, a header each.</summary>
    [Benchmark(OperationsPerInvoke = SendCount)]
    public void SharedBuffer()
    {
        for (var i = 0; i < SendCount; i++)
        {
            _service.SendShared(_children, PayloadBytes);
        }

        _loop.RunUntilIdle();
    }

    /// <summary>The sending service: writes a chunk and sends it to the children one way or the other.</summary>
    public sealed class FanOutService() : ServiceBase(0x0702, "fan-out")
    {
        /// <summary>Writes a chunk of <paramref name="length"/> bytes and routes a copy of it to each child.</summary>
        public void SendCopies(ReadOnlySpan<Coordinate> children, int length)
        {
            var chunk = WriteChunk(length);
            foreach (var child in children)
            {
                var copy = Node.CreatePacket();
                chunk.CopyTo(copy);
                Node.RouteToServer(copy, child);
            }

            chunk.Release();
        }

        /// <summary>Writes a chunk of <paramref name="length"/> bytes and transmits it to every child from its one buffer.</summary>
        public void SendShared(ReadOnlySpan<Coordinate> children, int length)
        {
            var chunk = WriteChunk(length);
            Node.Transmit(chunk, children, default);
            chunk.Release();
        }

        private Packet WriteChunk(int length)
        {
            var chunk = Node.CreatePacket();
            chunk.PayloadArea[..length].Fill(0x5A);
            chunk.PayloadLength = length;
            return chunk;
        }
    }
}
