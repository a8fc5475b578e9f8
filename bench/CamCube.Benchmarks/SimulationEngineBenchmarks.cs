using BenchmarkDotNet.Attributes;
using CamCube.Packets;
using CamCube.Transport;
using CamCube.Transport.Simulation;

namespace CamCube.Benchmarks;

/// <summary>
/// Speed of the discrete-event simulator on one core (simulator issue: goal at least 1,000,000
/// packet-hop events per second). <see cref="EngineEvents"/> measures one bare engine event with
/// 4,096 others queued; <see cref="PacketHops"/> measures one frame crossing
/// one link of an 8x8x8 torus whose links are all kept busy (a transmit-done and an arrival event,
/// the sink call and the next send). Both should allocate nothing.
/// Run: <c>dotnet run -c Release -- --filter '*SimulationEngine*'</c>.
/// </summary>
[MemoryDiagnoser]
public class SimulationEngineBenchmarks
{
    private const int EventsPerInvoke = 1_000_000;

    /// <summary>The events waiting in the queue while one runs: about what a busy 8x8x8 torus keeps.</summary>
    private const int PendingEvents = 4_096;
    private static readonly TimeSpan s_hopWindow = TimeSpan.FromMilliseconds(20);

    private SimulationEngine _engine = null!;
    private SimulationEngine _networkEngine = null!;
    private SimulatedNetwork _network = null!;
    private long _hopsPerWindow;

    /// <summary>Fills the engine with self-rescheduling work and builds the busy 8x8x8 network.</summary>
    [GlobalSetup]
    public void Setup()
    {
        _engine = new SimulationEngine(seed: 1, initialCapacity: PendingEvents * 2);
        var work = new Rescheduler(_engine);
        for (var i = 0; i < PendingEvents; i++)
        {
            _engine.Schedule(i, work, 0, i, null);
        }

        _networkEngine = new SimulationEngine(seed: 1, initialCapacity: 8_192);
        _network = new SimulatedNetwork(_networkEngine, new TorusShape(8, 8, 8));
        var pool = new PacketPool(9_000, pooledPacketsMax: 16_384);
        for (var i = 0; i < _network.ServerCount; i++)
        {
            var transport = _network.GetTransport(i);
            var node = new StraightOnNode(transport);
            transport.Start(node);
            for (var d = 0; d < LinkDirections.Count; d++)
            {
                var frame = pool.Rent();
                frame.WriteHeader(1, DestinationKind.Server, 255, transport.Self, default);
                frame.PayloadLength = 1_000;
                node.Enqueue((LinkDirection)d, frame);
            }
        }

        // Reach the steady state, then measure how many hops one window of virtual time holds.
        _networkEngine.RunFor(s_hopWindow);
        var before = _network.FramesDelivered;
        _networkEngine.RunFor(s_hopWindow);
        _hopsPerWindow = _network.FramesDelivered - before;
    }

    /// <summary>One engine event: dequeue, dispatch, and schedule its successor.</summary>
    [Benchmark(OperationsPerInvoke = EventsPerInvoke)]
    public void EngineEvents()
    {
        for (var i = 0; i < EventsPerInvoke; i++)
        {
            _engine.Step();
        }
    }

    /// <summary>One frame crossing one link (two engine events and a forward), in an 8x8x8 torus at full load.</summary>
    [Benchmark]
    public long PacketHops()
    {
        _networkEngine.RunFor(s_hopWindow);
        return _hopsPerWindow;
    }

    /// <summary>Gets the frames one <see cref="PacketHops"/> invocation moves over one link each (printed by <see cref="GlobalCleanup"/>).</summary>
    public long HopsPerWindow => _hopsPerWindow;

    /// <summary>Reports the hop count per invocation, to turn the time per invocation into hops per second.</summary>
    [GlobalCleanup]
    public void GlobalCleanup() => Console.WriteLine($"// PacketHops moves {_hopsPerWindow} frames one hop per invocation ({s_hopWindow.TotalMilliseconds} ms of virtual time).");

    /// <summary>Reschedules itself a pseudo-random 1..1,024 ns later, so the queue keeps its size and order churns.</summary>
    private sealed class Rescheduler(SimulationEngine engine) : ILoopWork
    {
        private uint _state = 2_463_534_242;

        public void Execute(int code, int argument, Packet? packet)
        {
            _state ^= _state << 13;
            _state ^= _state >> 17;
            _state ^= _state << 5;
            engine.Schedule(1 + (_state & 1_023), this, code, argument, packet);
        }
    }

    /// <summary>Sends every frame it receives straight on, through a small per-link queue, so every link stays busy.</summary>
    private sealed class StraightOnNode(ILinkTransport transport) : ITransportSink
    {
        private readonly Queue<Packet>[] _waiting = [new(4), new(4), new(4), new(4), new(4), new(4)];

        public void Enqueue(LinkDirection link, Packet frame) => _waiting[(int)link].Enqueue(frame);

        public void OnFrameReceived(LinkDirection link, Packet frame)
        {
            var next = link.Opposite();
            if (_waiting[(int)next].Count == 0 && transport.TrySend(next, frame))
            {
                return;
            }

            _waiting[(int)next].Enqueue(frame);
        }

        public void OnLinkRoom(LinkDirection link)
        {
            if (_waiting[(int)link].TryPeek(out var frame) && transport.TrySend(link, frame))
            {
                _waiting[(int)link].Dequeue();
            }
        }

        public void OnLinkStatus(LinkDirection link, bool up)
        {
        }
    }
}
