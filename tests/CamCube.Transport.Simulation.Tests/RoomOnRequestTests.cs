using CamCube.Packets;

namespace CamCube.Transport.Simulation.Tests;

/// <summary>
/// Room on request (<see cref="ILinkRoomRequests"/>): a node that enabled it hears of room only
/// when it asked, so a frame costs one event per hop, its arrival.
/// </summary>
public sealed class RoomOnRequestTests
{
    private const long Serialization = (1_000 + 38) * 8;
    private const long Propagation = 1_000;

    [Fact]
    public void NoRoomIsReportedWhenAFrameLeavesAndTheNodeDidNotAsk()
    {
        var (engine, network, pool, sink, receiver) = Start();
        var before = engine.EventCount;

        Assert.True(network.GetTransport(new Coordinate(0, 0, 0)).TrySend(LinkDirection.PlusX, TestFrames.Make(pool, 1_000)));
        engine.Run(TimeSpan.FromMilliseconds(1));

        Assert.Empty(sink.Rooms);
        Assert.Equal([Serialization + Propagation], receiver.Frames.Select(f => f.Nanoseconds));
        Assert.Equal(1, engine.EventCount - before); // the arrival, no transmit-done or room event
        Assert.Equal(new LinkStatistics(1, 1_000, 0, true), network.GetLinkStatistics(new Coordinate(0, 0, 0), LinkDirection.PlusX));
    }

    [Fact]
    public void RoomIsReportedOnceWhenTheFrameLeavesAfterARequest()
    {
        var (engine, network, pool, sink, receiver) = Start();
        var sender = network.GetTransport(new Coordinate(0, 0, 0));

        Assert.True(sender.TrySend(LinkDirection.PlusX, TestFrames.Make(pool, 1_000, 1)));
        Assert.False(sender.HasRoom(LinkDirection.PlusX));
        sender.RequestRoom(LinkDirection.PlusX);
        sender.RequestRoom(LinkDirection.PlusX);
        sink.OnLinkRoomAction = link => Assert.True(sender.TrySend(link, TestFrames.Make(pool, 1_000, 2)));
        engine.Run(TimeSpan.FromMilliseconds(1));

        // One notice for both requests, when the first frame left; the second frame, sent then, asked for none.
        Assert.Equal([(Serialization, LinkDirection.PlusX)], sink.Rooms);
        Assert.Equal([(Serialization + Propagation, 1), ((2 * Serialization) + Propagation, 2)], receiver.Frames.Select(f => (f.Nanoseconds, TestFrames.SequenceOf(f.Frame))));
    }

    [Fact]
    public void RequestOnAnIdleLinkIsAnsweredWhenTheNextFrameLeaves()
    {
        var (engine, network, pool, sink, _) = Start();
        var sender = network.GetTransport(new Coordinate(0, 0, 0));

        sender.RequestRoom(LinkDirection.PlusY);
        engine.Run(TimeSpan.FromMilliseconds(1));
        Assert.Empty(sink.Rooms);

        Assert.True(sender.TrySend(LinkDirection.PlusY, TestFrames.Make(pool, 1_000)));
        engine.Run(TimeSpan.FromMilliseconds(2));

        Assert.Equal([(1_000_000 + Serialization, LinkDirection.PlusY)], sink.Rooms);
    }

    [Fact]
    public void PendingRoomAndQueuedFramesGoWhenTheLinkIsCut()
    {
        var (engine, network, pool, sink, receiver) = Start();
        var sender = network.GetTransport(new Coordinate(0, 0, 0));
        Assert.True(sender.TrySend(LinkDirection.PlusX, TestFrames.Make(pool, 1_000)));
        sender.RequestRoom(LinkDirection.PlusX);

        engine.At(TimeSpan.FromMicroseconds(1), () => network.CutLink(new Coordinate(0, 0, 0), LinkDirection.PlusX));
        engine.Run(TimeSpan.FromMilliseconds(1));

        Assert.Empty(sink.Rooms);
        Assert.Empty(receiver.Frames);
        Assert.Equal(1, network.FramesDropped);
        Assert.Equal(pool.CreatedCount, pool.FreeCount);
    }

    [Fact]
    public void RoomOnRequestIsEnabledOnlyBeforeTheTransportStarts()
    {
        var network = new SimulatedNetwork(new SimulationEngine(), new TorusShape(3, 3, 3));
        var transport = network.GetTransport(new Coordinate(0, 0, 0));
        transport.Start(new RecordingSink(network.Engine));

        Assert.Throws<InvalidOperationException>(transport.EnableRoomOnRequest);
    }

    private static (SimulationEngine Engine, SimulatedNetwork Network, PacketPool Pool, RecordingSink Sink, RecordingSink Receiver) Start()
    {
        var engine = new SimulationEngine();
        var network = new SimulatedNetwork(engine, new TorusShape(3, 3, 3));
        var sender = network.GetTransport(new Coordinate(0, 0, 0));
        sender.EnableRoomOnRequest();
        var sink = new RecordingSink(engine);
        sender.Start(sink);
        var receiver = new RecordingSink(engine);
        network.GetTransport(new Coordinate(1, 0, 0)).Start(receiver);
        network.GetTransport(new Coordinate(0, 1, 0)).Start(new RecordingSink(engine));

        // The start-up notices of room on every up link come whether asked or not.
        engine.Run(TimeSpan.Zero);
        Assert.Equal(6, sink.Rooms.Count);
        sink.Rooms.Clear();
        return (engine, network, new PacketPool(9_000), sink, receiver);
    }
}
