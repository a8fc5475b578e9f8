using BenchmarkDotNet.Attributes;
using CamCube.Packets;
using CamCube.Services;
using CamCube.Testing;

namespace CamCube.Benchmarks;

/// <summary>
/// The cost of one hop on the in-memory transport (runtime issue): receive, demultiplex to the
/// service, routing decision, queue, poll, send. Packets go from (0,0,0) to (4,0,0) of a 9x1x1
/// ring, 4 hops each, and results are per hop. Goal: 0 bytes allocated per hop in steady state.
/// </summary>
[MemoryDiagnoser]
public class HopBenchmarks
{
    /// <summary>Packets per invocation.</summary>
    public const int PacketCount = 1_000;

    /// <summary>Hops each packet takes.</summary>
    public const int HopsPerPacket = 4;

    private InMemoryCube _cube = null!;
    private CountingService _source = null!;

    /// <summary>Starts the cube and warms pools and queues.</summary>
    [GlobalSetup]
    public void Setup()
    {
        _cube = InMemoryCube.Start(new TorusShape(9, 1, 1), n => n.Register(new CountingService()));
        _source = _cube[new Coordinate(0, 0, 0)].GetService<CountingService>()!;
        for (var i = 0; i < 10; i++)
        {
            SendAndDrain();
        }
    }

    /// <summary>Sends <see cref="PacketCount"/> packets 4 hops and runs the loop until all are delivered.</summary>
    [Benchmark(OperationsPerInvoke = PacketCount * HopsPerPacket)]
    public void ForwardOneHop() => SendAndDrain();

    private void SendAndDrain()
    {
        var target = new Coordinate(4, 0, 0);
        for (var i = 0; i < PacketCount; i++)
        {
            _source.Send(target);
        }

        _cube.RunUntilIdle();
    }

    /// <summary>A service that sends empty packets and counts what arrives.</summary>
    public sealed class CountingService() : ServiceBase(0x0100, "counting")
    {
        /// <summary>Gets the packets delivered here.</summary>
        public long Delivered { get; private set; }

        /// <summary>Routes an empty packet to <paramref name="server"/>.</summary>
        public void Send(Coordinate server)
        {
            var packet = Node.CreatePacket();
            packet.PayloadLength = 16;
            Node.RouteToServer(packet, server);
        }

        /// <inheritdoc/>
        public override bool OnDeliver(Packet packet)
        {
            Delivered++;
            return false;
        }
    }
}
