using CamCube.Packets;

namespace CamCube.Transport.Simulation.Tests;

public sealed class SimulatedNetworkTests
{
    private const long JumboSerializationNanoseconds = (9_000 + 38) * 8;
    private const long PropagationNanoseconds = 1_000;

    [Fact]
    public void SerializationCountsTheEthernetOverheadWhenBandwidthIsOneGigabit()
    {
        var options = SimulatedNetworkOptions.Default;

        Assert.Equal(72_304, options.SerializationNanoseconds(9_000));
        Assert.Equal(12_304, options.SerializationNanoseconds(1_500));
        Assert.Equal(1_231, (options with { BandwidthBitsPerSecond = 10_000_000_000 }).SerializationNanoseconds(1_500));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(3)]
    [InlineData(7)]
    public void JumboFrameArrivesAfterOneSerializationAndOnePropagationPerHopWhenForwardedHopByHop(int hops)
    {
        var engine = new SimulationEngine();
        var network = new SimulatedNetwork(engine, new TorusShape(8, 1, 1));
        var pool = new PacketPool(9_000);
        var arrivals = new List<(long Nanoseconds, Coordinate Where, LinkDirection Link)>();
        for (var i = 0; i < network.ServerCount; i++)
        {
            var transport = network.GetTransport(i);
            transport.Start(new ForwardingSink(transport, (link, frame) =>
            {
                frame.HopCount++;
                if (frame.HopCount < hops)
                {
                    return true; // forward on +x
                }

                arrivals.Add((engine.ElapsedNanoseconds, transport.Self, link));
                frame.Release();
                return false;
            }));
        }

        Assert.True(network.GetTransport(new Coordinate(0, 0, 0)).TrySend(LinkDirection.PlusX, TestFrames.Make(pool, 9_000)));
        engine.Run(TimeSpan.FromMilliseconds(10));

        var arrival = Assert.Single(arrivals);
        Assert.Equal(hops * (JumboSerializationNanoseconds + PropagationNanoseconds), arrival.Nanoseconds);
        Assert.Equal(new Coordinate(hops, 0, 0), arrival.Where);
        Assert.Equal(LinkDirection.MinusX, arrival.Link);
        Assert.Equal(hops, network.FramesDelivered);
        Assert.Equal(pool.CreatedCount, pool.FreeCount);
    }

    [Fact]
    public void StandardFramesTakeTheirOwnSerializationTimeWhenTheMtuIs1500()
    {
        var engine = new SimulationEngine();
        var network = new SimulatedNetwork(engine, new TorusShape(3, 3, 3), new SimulatedNetworkOptions { MtuBytes = 1_500 });
        var pool = new PacketPool(9_000);
        var receiver = StartRecording(network, new Coordinate(0, 1, 0));
        var sender = network.GetTransport(new Coordinate(0, 0, 0));
        sender.Start(new RecordingSink(engine));

        Assert.True(sender.TrySend(LinkDirection.PlusY, TestFrames.Make(pool, 1_500)));
        Assert.Throws<ArgumentException>(() => sender.TrySend(LinkDirection.PlusY, TestFrames.Make(pool, 1_501)));
        engine.Run(TimeSpan.FromMilliseconds(1));

        var frame = Assert.Single(receiver.Frames);
        Assert.Equal((12_304L + 1_000, LinkDirection.MinusY), (frame.Nanoseconds, frame.Link));
    }

    [Fact]
    public void LinkRefusesFramesAndLaterReportsRoomWhenItsQueueIsFull()
    {
        var engine = new SimulationEngine();
        var network = new SimulatedNetwork(engine, new TorusShape(3, 3, 3), new SimulatedNetworkOptions { FramesQueuedMax = 2 });
        var pool = new PacketPool(9_000);
        var sink = StartRecording(network, new Coordinate(0, 0, 0));
        var receiver = StartRecording(network, new Coordinate(1, 0, 0));
        var sender = network.GetTransport(new Coordinate(0, 0, 0));
        engine.Run(TimeSpan.Zero);
        Assert.Equal(6, sink.Rooms.Count);
        sink.Rooms.Clear();

        Assert.True(sender.TrySend(LinkDirection.PlusX, TestFrames.Make(pool, 1_000, 1)));
        Assert.True(sender.HasRoom(LinkDirection.PlusX));
        Assert.True(sender.TrySend(LinkDirection.PlusX, TestFrames.Make(pool, 1_000, 2)));
        Assert.False(sender.HasRoom(LinkDirection.PlusX));
        var refused = TestFrames.Make(pool, 1_000, 3);
        Assert.False(sender.TrySend(LinkDirection.PlusX, refused));
        Assert.True(sender.HasRoom(LinkDirection.MinusX));
        refused.Release();

        engine.Run(TimeSpan.FromMilliseconds(1));

        const long Serialization = (1_000 + 38) * 8;
        Assert.Equal([(Serialization, LinkDirection.PlusX), (2 * Serialization, LinkDirection.PlusX)], sink.Rooms);
        Assert.Equal([Serialization + 1_000, (2 * Serialization) + 1_000], receiver.Frames.Select(f => f.Nanoseconds));
        Assert.Equal([1, 2], receiver.Frames.Select(f => TestFrames.SequenceOf(f.Frame)));
        Assert.Equal(new LinkStatistics(2, 2_000, 0, true), network.GetLinkStatistics(new Coordinate(0, 0, 0), LinkDirection.PlusX));
        Assert.Equal(new LinkStatistics(0, 0, 2, true), network.GetLinkStatistics(new Coordinate(1, 0, 0), LinkDirection.MinusX));
    }

    [Fact]
    public void BothEndsUseThePlusLinkWhenTheAxisHasSizeTwo()
    {
        var engine = new SimulationEngine();
        var network = new SimulatedNetwork(engine, new TorusShape(2, 1, 1));
        var pool = new PacketPool(9_000);
        var a = StartRecording(network, new Coordinate(0, 0, 0));
        var b = StartRecording(network, new Coordinate(1, 0, 0));
        var ta = network.GetTransport(new Coordinate(0, 0, 0));
        var tb = network.GetTransport(new Coordinate(1, 0, 0));

        Assert.False(ta.HasRoom(LinkDirection.MinusX));
        Assert.True(ta.TrySend(LinkDirection.PlusX, TestFrames.Make(pool, 100, 1)));
        Assert.True(tb.TrySend(LinkDirection.PlusX, TestFrames.Make(pool, 100, 2)));
        var refused = TestFrames.Make(pool, 100);
        Assert.False(ta.TrySend(LinkDirection.MinusX, refused));
        refused.Release();
        engine.Run(TimeSpan.FromMilliseconds(1));

        Assert.Equal([(LinkDirection.PlusX, 2)], a.Frames.Select(f => (f.Link, TestFrames.SequenceOf(f.Frame))));
        Assert.Equal([(LinkDirection.PlusX, 1)], b.Frames.Select(f => (f.Link, TestFrames.SequenceOf(f.Frame))));
        // The start-up room on +x is not reported: by then the link was busy with the frame.
        Assert.Equal([(1_104L, LinkDirection.PlusX)], a.Rooms);
    }

    [Fact]
    public void NeighborsSeeTheirLinksGoDownAndFramesAreLostWhenAServerIsKilled()
    {
        var engine = new SimulationEngine();
        var network = new SimulatedNetwork(engine, new TorusShape(3, 3, 3));
        var pool = new PacketPool(9_000);
        var victim = new Coordinate(1, 1, 1);
        var sinks = StartAll(network);
        var west = network.GetTransport(new Coordinate(0, 1, 1));
        engine.Run(TimeSpan.FromMicroseconds(1));
        Assert.True(west.TrySend(LinkDirection.PlusX, TestFrames.Make(pool, 9_000)));

        engine.At(TimeSpan.FromMicroseconds(10), () => network.KillServer(victim));
        engine.Run(TimeSpan.FromMilliseconds(1));

        Assert.False(network.IsAlive(victim));
        Assert.True(network.GetTransport(victim).IsFailed);
        Assert.False(network.GetTransport(victim).HasRoom(LinkDirection.PlusX));
        Assert.False(west.HasRoom(LinkDirection.PlusX));
        Assert.Equal(1, network.FramesDropped);
        Assert.Equal(26, network.AliveServerCount);
        Assert.Empty(sinks[(int)network.Shape.IndexOf(victim)].Frames);
        Span<LinkDirection> links = stackalloc LinkDirection[6];
        network.Shape.GetLinks(links);
        foreach (var link in links)
        {
            var neighbor = network.Shape.Neighbor(victim, link);
            var statuses = sinks[(int)network.Shape.IndexOf(neighbor)].Statuses;
            Assert.Equal([(10_000L, link.Opposite(), false)], statuses);
        }
    }

    [Fact]
    public void RestartedServerGetsAFreshTransportAndNeighborsSeeTheirLinksComeUp()
    {
        var engine = new SimulationEngine();
        var network = new SimulatedNetwork(engine, new TorusShape(3, 3, 3));
        var pool = new PacketPool(9_000);
        var victim = new Coordinate(1, 1, 1);
        var sinks = StartAll(network);
        network.KillServer(victim);
        engine.RunFor(TimeSpan.FromMicroseconds(5));

        var fresh = network.RestartServer(victim);
        var freshSink = new RecordingSink(engine);
        fresh.Start(freshSink);
        engine.RunFor(TimeSpan.FromMicroseconds(5));
        var west = network.GetTransport(new Coordinate(0, 1, 1));
        Assert.True(west.TrySend(LinkDirection.PlusX, TestFrames.Make(pool, 100)));
        engine.RunFor(TimeSpan.FromMicroseconds(10));

        Assert.Same(fresh, network.GetTransport(victim));
        Assert.Equal(6, freshSink.Rooms.Count);
        Assert.Equal((LinkDirection.MinusX, 10_000L + 1_104 + 1_000), (freshSink.Frames[0].Link, freshSink.Frames[0].Nanoseconds));
        Assert.Equal(
            [(0L, LinkDirection.PlusX, false), (5_000L, LinkDirection.PlusX, true)],
            sinks[(int)network.Shape.IndexOf(new Coordinate(0, 1, 1))].Statuses);
        Assert.Throws<InvalidOperationException>(() => network.RestartServer(victim));
    }

    [Fact]
    public void NeighborsKeepSendingIntoTheVoidWhenFailuresAreNotSignalled()
    {
        var engine = new SimulationEngine();
        var options = new SimulatedNetworkOptions { SignalServerFailureToNeighbors = false };
        var network = new SimulatedNetwork(engine, new TorusShape(3, 3, 3), options);
        var pool = new PacketPool(9_000);
        var sinks = StartAll(network);
        network.KillServer(new Coordinate(1, 1, 1));
        var west = network.GetTransport(new Coordinate(0, 1, 1));

        Assert.True(west.TrySend(LinkDirection.PlusX, TestFrames.Make(pool, 100)));
        engine.Run(TimeSpan.FromMilliseconds(1));

        Assert.Empty(sinks[(int)network.Shape.IndexOf(new Coordinate(0, 1, 1))].Statuses);
        Assert.Equal(1, network.FramesDropped);
        Assert.Equal(pool.CreatedCount, pool.FreeCount);
    }

    [Fact]
    public void BothEndsGoDownAndTheFrameOnTheWireIsLostWhenALinkIsCut()
    {
        var engine = new SimulationEngine();
        var network = new SimulatedNetwork(engine, new TorusShape(3, 3, 3));
        var pool = new PacketPool(9_000);
        var a = StartRecording(network, new Coordinate(0, 0, 0));
        var b = StartRecording(network, new Coordinate(1, 0, 0));
        var ta = network.GetTransport(new Coordinate(0, 0, 0));
        Assert.True(ta.TrySend(LinkDirection.PlusX, TestFrames.Make(pool, 9_000)));

        engine.At(TimeSpan.FromMicroseconds(3), () => network.CutLink(new Coordinate(0, 0, 0), LinkDirection.PlusX));
        engine.At(TimeSpan.FromMicroseconds(100), () => network.RestoreLink(new Coordinate(1, 0, 0), LinkDirection.MinusX));
        engine.Run(TimeSpan.FromMicroseconds(50));

        Assert.True(network.IsLinkCut(new Coordinate(1, 0, 0), LinkDirection.MinusX));
        Assert.False(ta.HasRoom(LinkDirection.PlusX));
        var refused = TestFrames.Make(pool, 100);
        Assert.False(ta.TrySend(LinkDirection.PlusX, refused));
        refused.Release();
        engine.Run(TimeSpan.FromMilliseconds(1));

        Assert.Equal(1, network.FramesDropped);
        Assert.Empty(b.Frames);
        Assert.Equal([(3_000L, LinkDirection.PlusX, false), (100_000L, LinkDirection.PlusX, true)], a.Statuses);
        Assert.Equal([(3_000L, LinkDirection.MinusX, false), (100_000L, LinkDirection.MinusX, true)], b.Statuses);
        Assert.Equal((100_000L, LinkDirection.PlusX), a.Rooms[^1]);
        Assert.Equal(pool.CreatedCount, pool.FreeCount);
    }

    [Fact]
    public void FrameInFlightIsLostWhenItsLinkIsCutAfterItLeft()
    {
        var engine = new SimulationEngine();
        var network = new SimulatedNetwork(engine, new TorusShape(3, 3, 3));
        var pool = new PacketPool(9_000);
        StartRecording(network, new Coordinate(0, 0, 0));
        var b = StartRecording(network, new Coordinate(1, 0, 0));
        Assert.True(network.GetTransport(new Coordinate(0, 0, 0)).TrySend(LinkDirection.PlusX, TestFrames.Make(pool, 100)));

        // The frame has left at 1,104 ns and is on the wire until 2,104 ns.
        engine.At(TimeSpan.FromTicks(15), () => network.CutLink(new Coordinate(0, 0, 0), LinkDirection.PlusX));
        engine.At(TimeSpan.FromTicks(18), () => network.RestoreLink(new Coordinate(0, 0, 0), LinkDirection.PlusX));
        engine.Run(TimeSpan.FromMilliseconds(1));

        Assert.Empty(b.Frames);
        Assert.Equal(1, network.FramesDropped);
        Assert.Equal(new LinkStatistics(1, 100, 0, true), network.GetLinkStatistics(new Coordinate(0, 0, 0), LinkDirection.PlusX));
    }

    [Fact]
    public void StoppingATransportTakesItsServerOutOfTheNetwork()
    {
        var engine = new SimulationEngine();
        var network = new SimulatedNetwork(engine, new TorusShape(3, 3, 3));
        StartAll(network);
        var transport = network.GetTransport(new Coordinate(2, 2, 2));

        transport.Stop();

        Assert.False(network.IsAlive(new Coordinate(2, 2, 2)));
        Assert.Throws<InvalidOperationException>(() => transport.Start(new RecordingSink(engine)));
    }

    private static RecordingSink StartRecording(SimulatedNetwork network, Coordinate where)
    {
        var sink = new RecordingSink(network.Engine);
        network.GetTransport(where).Start(sink);
        return sink;
    }

    private static RecordingSink[] StartAll(SimulatedNetwork network)
    {
        var sinks = new RecordingSink[network.ServerCount];
        for (var i = 0; i < sinks.Length; i++)
        {
            sinks[i] = new RecordingSink(network.Engine);
            network.GetTransport(i).Start(sinks[i]);
        }

        return sinks;
    }

    /// <summary>Forwards a received frame on the opposite link (straight on) when the callback says so.</summary>
    private sealed class ForwardingSink(SimulatedLinkTransport transport, Func<LinkDirection, Packet, bool> onFrame) : ITransportSink
    {
        public void OnFrameReceived(LinkDirection link, Packet frame)
        {
            if (onFrame(link, frame))
            {
                Assert.True(transport.TrySend(link.Opposite(), frame));
            }
        }

        public void OnLinkRoom(LinkDirection link)
        {
        }

        public void OnLinkStatus(LinkDirection link, bool up)
        {
        }
    }
}
