using CamCube.Packets;
using CamCube.Transport.Faults;

namespace CamCube.Transport.Simulation.Tests;

public sealed class FaultInjectingTransportTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_self = new(0, 0, 0);

    [Fact]
    public void DropsExactlyTheFramesTheSeededRandomPicksWhenDropProbabilityIsSet()
    {
        var (engine, stub, faulty, sink, pool) = Create(seed: 7);
        faulty.Faults = new FaultOptions { DropProbability = 0.1 };

        for (var i = 0; i < 1_000; i++)
        {
            stub.Receive(LinkDirection.PlusX, TestFrames.Make(pool, 200, i));
        }

        var replay = new Random(7);
        var expected = Enumerable.Range(0, 1_000).Where(_ => replay.NextDouble() >= 0.1).ToList();
        Assert.Equal(100, faulty.FramesDropped);
        Assert.Equal(1_000 - 100, faulty.FramesDelivered);
        Assert.Equal(expected, sink.Frames.Select(f => TestFrames.SequenceOf(f.Frame)));
        Assert.Equal(0, engine.PendingEventCount);
    }

    [Fact]
    public void DeliversACopyRightAfterTheOriginalWhenTheSeededRandomPicksADuplicate()
    {
        var (_, stub, faulty, sink, pool) = Create(seed: 11);
        faulty.Faults = new FaultOptions { DuplicateProbability = 0.25 };

        for (var i = 0; i < 400; i++)
        {
            stub.Receive(LinkDirection.MinusY, TestFrames.Make(pool, 300, i));
        }

        var replay = new Random(11);
        var expected = new List<int>();
        for (var i = 0; i < 400; i++)
        {
            expected.Add(i);
            if (replay.NextDouble() < 0.25)
            {
                expected.Add(i);
            }
        }

        Assert.Equal(105, faulty.FramesDuplicated);
        Assert.Equal(expected, sink.Frames.Select(f => TestFrames.SequenceOf(f.Frame)));
        var firstCopy = expected.FindIndex(i => expected.Count(j => j == i) == 2);
        var (original, copy) = (sink.Frames[firstCopy].Frame, sink.Frames[firstCopy + 1].Frame);
        Assert.NotSame(original, copy);
        Assert.Equal(original.Frame.ToArray(), copy.Frame.ToArray());
    }

    [Fact]
    public void DelaysEveryFrameByTheSameAmountAndKeepsTheirOrderWhenDelayIsSet()
    {
        var (engine, stub, faulty, sink, pool) = Create(seed: 1);
        faulty.Faults = new FaultOptions { Delay = TimeSpan.FromMicroseconds(50) };
        for (var i = 0; i < 3; i++)
        {
            var sequence = i;
            engine.At(TimeSpan.FromMicroseconds(10 * i), () => stub.Receive(LinkDirection.PlusZ, TestFrames.Make(pool, 64, sequence)));
        }

        engine.Run(TimeSpan.FromMicroseconds(55));
        Assert.Equal(2, faulty.FramesHeld);
        engine.Run(TimeSpan.FromMilliseconds(1));

        Assert.Equal([(50_000L, 0), (60_000L, 1), (70_000L, 2)], sink.Frames.Select(f => (f.Nanoseconds, TestFrames.SequenceOf(f.Frame))));
        Assert.Equal(0, faulty.FramesHeld);
    }

    [Fact]
    public void LaterFramesOvertakeTheHeldOnesWhenTheSeededRandomPicksThemForReordering()
    {
        var (engine, stub, faulty, sink, pool) = Create(seed: 5);
        faulty.Faults = new FaultOptions { ReorderProbability = 0.1, ReorderDelay = TimeSpan.FromMicroseconds(25) };
        for (var i = 0; i < 500; i++)
        {
            var sequence = i;
            engine.At(TimeSpan.FromMicroseconds(10 * i), () => stub.Receive(LinkDirection.PlusX, TestFrames.Make(pool, 64, sequence)));
        }

        engine.Run(TimeSpan.FromSeconds(1));

        var replay = new Random(5);
        var expected = Enumerable.Range(0, 500)
            .Select(i => (Nanoseconds: (10_000L * i) + (replay.NextDouble() < 0.1 ? 25_000 : 0), Sequence: i))
            .OrderBy(e => e.Nanoseconds)
            .ToList();
        Assert.Equal(55, faulty.FramesReordered);
        Assert.Equal(expected, sink.Frames.Select(f => (f.Nanoseconds, TestFrames.SequenceOf(f.Frame))));
    }

    [Fact]
    public void CutLinkLooksDownDropsItsFramesAndRefusesSendsUntilRestored()
    {
        var (engine, stub, faulty, sink, pool) = Create(seed: 1);

        faulty.CutLink(LinkDirection.PlusX);
        engine.Run(TimeSpan.Zero);
        stub.Receive(LinkDirection.PlusX, TestFrames.Make(pool, 64, 1));
        stub.Receive(LinkDirection.MinusX, TestFrames.Make(pool, 64, 2));
        var refused = TestFrames.Make(pool, 64);
        var refusedSend = faulty.TrySend(LinkDirection.PlusX, refused);
        var roomWhileCut = faulty.HasRoom(LinkDirection.PlusX);
        refused.Release();
        faulty.RestoreLink(LinkDirection.PlusX);
        engine.Run(TimeSpan.Zero);

        Assert.False(refusedSend);
        Assert.False(roomWhileCut);
        Assert.Equal(1, faulty.FramesDroppedByCut);
        Assert.Equal([2], sink.Frames.Select(f => TestFrames.SequenceOf(f.Frame)));
        Assert.Equal([(0L, LinkDirection.PlusX, false), (0L, LinkDirection.PlusX, true)], sink.Statuses);
        Assert.Equal([(0L, LinkDirection.PlusX)], sink.Rooms);
        Assert.True(faulty.TrySend(LinkDirection.PlusX, TestFrames.Make(pool, 64)));
        Assert.Single(stub.Sent);
    }

    [Fact]
    public void FramesToAndFromTheOtherSideAreLostSilentlyWhenAPartitionSeparatesThem()
    {
        var (engine, stub, faulty, sink, pool) = Create(seed: 1);
        var partition = new NetworkPartition(s_shape);
        faulty.Partition = partition;
        partition.Isolate([new Coordinate(1, 0, 0), new Coordinate(1, 1, 0)]);

        stub.Receive(LinkDirection.PlusX, TestFrames.Make(pool, 64, 1));
        stub.Receive(LinkDirection.MinusX, TestFrames.Make(pool, 64, 2));
        Assert.True(faulty.TrySend(LinkDirection.PlusX, TestFrames.Make(pool, 64, 3)));
        Assert.True(faulty.TrySend(LinkDirection.PlusY, TestFrames.Make(pool, 64, 4)));
        engine.Run(TimeSpan.Zero);
        Assert.Equal(1, partition.SideOf(new Coordinate(1, 1, 0)));
        partition.Heal();
        stub.Receive(LinkDirection.PlusX, TestFrames.Make(pool, 64, 5));

        Assert.Equal(2, faulty.FramesDroppedByPartition);
        Assert.Equal([2, 5], sink.Frames.Select(f => TestFrames.SequenceOf(f.Frame)));
        Assert.Equal([4], stub.Sent.Select(s => TestFrames.SequenceOf(s.Frame)));
        Assert.Equal([(0L, LinkDirection.PlusX)], sink.Rooms);
        Assert.Empty(sink.Statuses);
        Assert.False(partition.IsActive);
    }

    [Fact]
    public void StopReleasesHeldFramesAndStopsTheInnerTransport()
    {
        var (engine, stub, faulty, sink, pool) = Create(seed: 1);
        faulty.Faults = new FaultOptions { Delay = TimeSpan.FromMilliseconds(1) };
        stub.Receive(LinkDirection.PlusX, TestFrames.Make(pool, 64));
        stub.Receive(LinkDirection.PlusX, TestFrames.Make(pool, 64));

        faulty.Stop();
        engine.Run(TimeSpan.FromSeconds(1));

        Assert.True(stub.Stopped);
        Assert.Empty(sink.Frames);
        Assert.Equal(pool.CreatedCount, pool.FreeCount);
    }

    [Fact]
    public void RejectsAProbabilityOutsideZeroToOne()
    {
        var (_, _, faulty, _, _) = Create(seed: 1);

        Assert.Throws<ArgumentOutOfRangeException>(() => faulty.Faults = new FaultOptions { DropProbability = 1.5 });
        Assert.Throws<ArgumentOutOfRangeException>(() => faulty.Faults = new FaultOptions { ReorderProbability = double.NaN });
    }

    [Fact]
    public void DropsTheSameFramesOverTheSimulatorWhenWrappingASimulatedTransport()
    {
        var engine = new SimulationEngine(seed: 3);
        var network = new SimulatedNetwork(engine, s_shape);
        var pool = new PacketPool(9_000);
        var sender = network.GetTransport(s_self);
        var senderSink = new RecordingSink(engine);
        sender.Start(senderSink);
        var receiverSink = new RecordingSink(engine);
        var receiver = new FaultInjectingTransport(network.GetTransport(new Coordinate(1, 0, 0)), engine, new Random(9), pool);
        receiver.Faults = new FaultOptions { DropProbability = 0.3 };
        receiver.Start(receiverSink);
        var next = 0;

        // The sender sends frame after frame whenever +x has room, starting with the room it hears at start.
        senderSink.OnLinkRoomAction = link =>
        {
            if (link == LinkDirection.PlusX && next < 200)
            {
                Assert.True(sender.TrySend(link, TestFrames.Make(pool, 1_000, next++)));
            }
        };

        engine.Run(TimeSpan.FromSeconds(1));

        var replay = new Random(9);
        var expected = Enumerable.Range(0, 200).Where(_ => replay.NextDouble() >= 0.3).ToList();
        Assert.Equal(200, network.FramesDelivered);
        Assert.Equal(200 - expected.Count, receiver.FramesDropped);
        Assert.Equal(expected, receiverSink.Frames.Select(f => TestFrames.SequenceOf(f.Frame)));
        Assert.Equal(200 * (1_038L * 8) + 1_000, receiverSink.Frames[^1].Nanoseconds);
    }

    private static (SimulationEngine Engine, StubTransport Stub, FaultInjectingTransport Faulty, RecordingSink Sink, PacketPool Pool) Create(int seed)
    {
        var engine = new SimulationEngine();
        var stub = new StubTransport(s_shape, s_self);
        var pool = new PacketPool(9_000);
        var faulty = new FaultInjectingTransport(stub, engine, new Random(seed), pool);
        var sink = new RecordingSink(engine);
        faulty.Start(sink);
        return (engine, stub, faulty, sink, pool);
    }
}
