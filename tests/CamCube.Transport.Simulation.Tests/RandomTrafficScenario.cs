using CamCube.Packets;
using CamCube.Transport.Faults;

namespace CamCube.Transport.Simulation.Tests;

/// <summary>
/// A small cube with random traffic, random faults, a partition, a server failure and its
/// restart: everything random comes from the engine's seed.
/// </summary>
internal sealed class RandomTrafficScenario
{
    private readonly SimulationEngine _engine;
    private readonly SimulatedNetwork _network;
    private readonly PacketPool _pool = new(9_000);
    private readonly NetworkPartition _partition;
    private readonly TrafficNode?[] _nodes;
    private readonly List<FaultInjectingTransport> _decorators = [];

    private RandomTrafficScenario(int seed)
    {
        _engine = new SimulationEngine(seed);
        _network = new SimulatedNetwork(_engine, new TorusShape(4, 4, 4), new SimulatedNetworkOptions { FramesQueuedMax = 2 });
        _partition = new NetworkPartition(_network.Shape);
        _nodes = new TrafficNode?[_network.ServerCount];
    }

    public static ScenarioResult Run(int seed)
    {
        var scenario = new RandomTrafficScenario(seed);
        return scenario.RunFor(TimeSpan.FromMilliseconds(1));
    }

    private ScenarioResult RunFor(TimeSpan duration)
    {
        for (var i = 0; i < _network.ServerCount; i++)
        {
            StartNode(i);
        }

        var chaos = _engine.CreateRandom(-1);
        var victim = _network.Shape.CoordinateAt(chaos.Next(_network.ServerCount));
        var isolated = _network.Shape.CoordinateAt(chaos.Next(_network.ServerCount));
        var cut = _network.Shape.CoordinateAt(chaos.Next(_network.ServerCount));
        _engine.At(TimeSpan.FromMicroseconds(200), () => Kill(victim));
        _engine.At(TimeSpan.FromMicroseconds(300), () => _partition.Isolate([isolated]));
        _engine.At(TimeSpan.FromMicroseconds(400), () => _network.CutLink(cut, LinkDirection.PlusY));
        _engine.At(TimeSpan.FromMicroseconds(500), _partition.Heal);
        _engine.At(TimeSpan.FromMicroseconds(600), () => Restart(victim));
        _engine.At(TimeSpan.FromMicroseconds(700), () => _network.RestoreLink(cut, LinkDirection.PlusY));
        _engine.Run(duration);

        long received = 0;
        foreach (var node in _nodes)
        {
            received += node?.Received ?? 0;
        }

        long faultDrops = 0;
        foreach (var decorator in _decorators)
        {
            faultDrops += decorator.FramesDropped + decorator.FramesDroppedByPartition + decorator.FramesDroppedByCut;
        }

        return new ScenarioResult(_engine.TraceHashHex, _engine.EventCount, _network.FramesSent, _network.FramesDelivered, _network.FramesDropped, received, faultDrops);
    }

    private void StartNode(int index)
    {
        var faulty = new FaultInjectingTransport(_network.GetTransport(index), _engine, _engine.CreateRandom(1_000 + index), _pool, _partition)
        {
            Faults = new FaultOptions { DropProbability = 0.02, DuplicateProbability = 0.02, ReorderProbability = 0.05, ReorderDelay = TimeSpan.FromMicroseconds(30) },
        };
        _decorators.Add(faulty);
        var node = new TrafficNode(faulty, _engine, _engine.CreateRandom(index), _pool);
        _nodes[index] = node;
        faulty.Start(node);
    }

    private void Kill(Coordinate victim)
    {
        var index = (int)_network.Shape.IndexOf(victim);
        _nodes[index]!.Dispose();
        _nodes[index] = null;
        _network.KillServer(victim);
    }

    private void Restart(Coordinate victim)
    {
        _network.RestartServer(victim);
        StartNode((int)_network.Shape.IndexOf(victim));
    }

    /// <summary>Sends a frame on a random link every 20 µs and forwards what it receives on a random link, up to 8 hops.</summary>
    private sealed class TrafficNode : ITransportSink, IDisposable
    {
        private readonly ILinkTransport _transport;
        private readonly Random _random;
        private readonly PacketPool _pool;
        private readonly ITimer _timer;

        public TrafficNode(ILinkTransport transport, TimeProvider clock, Random random, PacketPool pool)
        {
            _transport = transport;
            _random = random;
            _pool = pool;
            _timer = clock.CreateTimer(static s => ((TrafficNode)s!).SendOne(), this, TimeSpan.FromMicroseconds(20), TimeSpan.FromMicroseconds(20));
        }

        public long Received { get; private set; }

        public void Dispose() => _timer.Dispose();

        public void OnFrameReceived(LinkDirection link, Packet frame)
        {
            Received++;
            frame.HopCount++;
            var next = (LinkDirection)_random.Next(LinkDirections.Count);
            if (frame.HopCount < 8 && _transport.TrySend(next, frame))
            {
                return;
            }

            frame.Release();
        }

        public void OnLinkRoom(LinkDirection link)
        {
        }

        public void OnLinkStatus(LinkDirection link, bool up)
        {
        }

        private void SendOne()
        {
            var link = (LinkDirection)_random.Next(LinkDirections.Count);
            var frame = TestFrames.Make(_pool, _random.Next(PacketHeader.SizeBytes + 4, 9_001));
            if (!_transport.TrySend(link, frame))
            {
                frame.Release();
            }
        }
    }
}

/// <summary>What a run of <see cref="RandomTrafficScenario"/> produced.</summary>
internal readonly record struct ScenarioResult(string TraceHash, long Events, long Sent, long Delivered, long Dropped, long Received, long FaultDrops);
