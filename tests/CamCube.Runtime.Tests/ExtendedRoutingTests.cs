using System.Buffers.Binary;
using CamCube.Packets;
using CamCube.Services;
using CamCube.Testing;

namespace CamCube.Runtime.Tests;

public class ExtendedRoutingTests
{
    private static KeyCoordinate K(int x, int y, int z, ushort w = 0) => new(x, y, z, w);

    [Fact]
    public void FixedChainOfKeyCoordinatesIsVisitedInOrder()
    {
        var timeline = new List<(Coordinate At, KeyCoordinate Current, int PacketId)>();
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3), n => n.Register(new ChainService(timeline: timeline)));
        var source = cube[new Coordinate(0, 0, 0)].GetService<ChainService>()!;
        Assert.Equal(RouteStatus.Queued, source.Send(1, K(2, 0, 0), K(2, 2, 0), K(0, 2, 2)));
        cube.RunUntilIdle();

        // F is evaluated at the source and at each intermediate key coordinate, in order; the last one consumes the packet.
        Assert.Equal([new Coordinate(0, 0, 0), new(2, 0, 0), new(2, 2, 0)], timeline.Select(e => e.At));
        Assert.Equal([K(0, 0, 0), K(2, 0, 0), K(2, 2, 0)], timeline.Select(e => e.Current));
        Assert.Equal(new Coordinate(0, 2, 2), Assert.Single(cube.LiveNodes.SelectMany(n => n.GetService<ChainService>()!.Arrivals)).At);
    }

    [Fact]
    public void PacketIsDroppedAsMalformedWhenFReturnsAKeyCoordinateOutsideTheTorus()
    {
        // Found by the fuzzer (tests/CamCube.Fuzz/corpus/cache/found-f-target-outside-torus): F
        // computes its targets from bytes a sender chose, so a target may lie outside the torus.
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3), n => n.Register(new ChainService()));
        var source = cube[new Coordinate(0, 0, 0)].GetService<ChainService>()!;
        Assert.Equal(RouteStatus.Queued, source.Send(1, K(1, 0, 0), K(9, 0, 0)));
        cube.RunUntilIdle();

        var hop = cube[new Coordinate(1, 0, 0)];
        Assert.Equal(1, hop.Counters.Dropped(DropReason.Malformed));
        Assert.Equal(0, hop.Counters.Dropped(DropReason.ServiceFault));
        Assert.Empty(cube.LiveNodes.SelectMany(n => n.GetService<ChainService>()!.Arrivals));
    }

    [Fact]
    public void FailedServerOnTheChainIsReplacedByItsKeysNewOwnerWhereFIsEvaluated()
    {
        var shape = new TorusShape(4, 4, 4);
        var cube = InMemoryCube.Start(shape, n => n.Register(new ChainService()));
        var failed = new Coordinate(2, 0, 0);
        cube.Kill(failed);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));

        var via = K(2, 0, 0, w: 13);
        var owner = KeySpace.For(shape).GetServersForKey(via, 1, ReachabilityView.WithUnreachable(shape, [failed]))[0];
        cube[new Coordinate(0, 0, 0)].GetService<ChainService>()!.Send(7, via, K(3, 3, 3));
        cube.RunUntilIdle();

        var atOwner = cube[owner].GetService<ChainService>()!.Evaluations;
        Assert.Contains((owner, via, 7), atOwner);
        Assert.Equal(1, shape.Distance(owner, failed));
        Assert.Equal(new Coordinate(3, 3, 3), Assert.Single(cube[new Coordinate(3, 3, 3)].GetService<ChainService>()!.Arrivals).At);
    }

    [Fact]
    public void TransmitToThreeTargetsDeliversToThreeServersFromOneBuffer()
    {
        var cube = InMemoryCube.Start(new TorusShape(4, 4, 4), n => n.Register(new ChainService()));
        var source = cube[new Coordinate(0, 0, 0)];
        var service = source.GetService<ChainService>()!;
        var pool = new PacketPool();
        var packet = pool.Rent();
        packet.StampHeader(service.ServiceId, DestinationKind.Key, source.HopLimit, source.Self, K(0, 0, 0));
        packet.PayloadArea[0] = 0;
        packet.PayloadArea[1] = 0;
        BinaryPrimitives.WriteUInt16BigEndian(packet.PayloadArea[2..], 9);
        BinaryPrimitives.WriteUInt16BigEndian(packet.PayloadArea[4..], ushort.MaxValue);
        packet.PayloadLength = ChainService.ChainOffset;

        Assert.Equal(3, service.PublicRouter.Transmit(packet, [K(1, 2, 3), K(3, 3, 0), K(2, 0, 2)]));
        packet.Release();
        cube.RunUntilIdle();

        var arrivals = cube.LiveNodes.SelectMany(n => n.GetService<ChainService>()!.Arrivals).Select(a => a.At).ToHashSet();
        Assert.Equal(3, arrivals.Count);
        Assert.True(arrivals.SetEquals([new Coordinate(1, 2, 3), new Coordinate(3, 3, 0), new Coordinate(2, 0, 2)]));

        // One payload buffer for the three targets, back in its pool once; a header of their own each.
        Assert.Equal((1L, 1L, 3L, 3L), (pool.RentedCount, pool.ReturnedCount, pool.HeaderPool.RentedCount, pool.HeaderPool.ReturnedCount));
    }

    [Fact]
    public void PacketsNeverLeaveOnTheLinkTheyCameInOn()
    {
        var shape = new TorusShape(4, 4, 4);
        var cube = InMemoryCube.Start(shape, n => n.Register(new ChainService()));
        var random = new Random(31);
        var id = 0;
        foreach (var node in cube.LiveNodes.ToArray())
        {
            for (var i = 0; i < 10; i++)
            {
                var chain = Enumerable.Range(0, 4).Select(_ => K(random.Next(4), random.Next(4), random.Next(4), (ushort)random.Next(65_536))).ToArray();
                node.GetService<ChainService>()!.Send(id++, chain);
            }
        }

        cube.RunUntilIdle();
        var services = cube.LiveNodes.Select(n => n.GetService<ChainService>()!).ToArray();
        Assert.Empty(services.SelectMany(s => s.BackToSenderViolations));
        Assert.Equal(id, services.Sum(s => s.Arrivals.Count) + cube.LiveNodes.Sum(n => n.Counters.Dropped(DropReason.NoRoute)));
        Assert.True(services.Sum(s => s.Arrivals.Count) > id / 2);
    }

    [Fact]
    public void FPointingBackAtTheSenderTakesADetourNeverTheArrivalLink()
    {
        var cube = InMemoryCube.Start(new TorusShape(5, 1, 1), n => n.Register(new ChainService()));
        var source = cube[new Coordinate(0, 0, 0)];
        // At (1,0,0), the next entry is (0,0,0): its only shortest path is the link the packet came in on,
        // so it goes the other way round the ring: (2,0,0), (3,0,0), (4,0,0), (0,0,0).
        source.GetService<ChainService>()!.Send(3, K(1, 0, 0), K(0, 0, 0));
        cube.RunUntilIdle();
        Assert.Equal(0, cube[new Coordinate(1, 0, 0)].Counters.Dropped(DropReason.NoRoute));
        Assert.Single(source.GetService<ChainService>()!.Arrivals);
        Assert.Equal(1, cube[new Coordinate(1, 0, 0)].GetServiceCounters(0x0500)!.PacketsSent);
        Assert.Equal(1, cube[new Coordinate(2, 0, 0)].GetServiceCounters(0x0500)!.PacketsSent);
        Assert.Equal(1, cube[new Coordinate(4, 0, 0)].GetServiceCounters(0x0500)!.PacketsSent);
        Assert.All(cube.LiveNodes, n => Assert.Empty(n.GetService<ChainService>()!.BackToSenderViolations));
    }

    [Fact]
    public void QueuesOfOneServiceShareByWeightAndOtherServicesGetTheirFairShare()
    {
        var log = new List<Delivery>();
        var cube = InMemoryCube.Start(new TorusShape(3, 1, 1), n =>
        {
            var chain = new ChainService(queue: new RoutingQueueOptions(TimeSpan.FromMinutes(1), Weight: 2)) { ClassifyHook = p => p.Payload[3] % 2 };
            n.Register(chain);
            chain.PublicRouter.AddQueue(1, new RoutingQueueOptions(TimeSpan.FromMinutes(1), Weight: 1));
            n.Register(new RecordingService(0x0100, log));
            n.Register(new RecordingService(0x0101, log));
        });
        var source = cube[new Coordinate(0, 0, 0)];
        var target = new Coordinate(1, 0, 0);
        for (var i = 0; i < 6_000; i++)
        {
            source.GetService<ChainService>()!.Send(i, K(1, 0, 0));
            ((RecordingService)source.GetService(0x0100)!).SendToServer(target, i);
            ((RecordingService)source.GetService(0x0101)!).SendToServer(target, i);
        }

        // Measure the first 6,000 arrivals, while all three services are backlogged.
        var chainAtTarget = cube[target].GetService<ChainService>()!;
        while (chainAtTarget.Arrivals.Count + log.Count < 6_000 && cube.Loop.RunUntilIdle(itemsMax: 1) == 1)
        {
        }

        var chainArrivals = chainAtTarget.Arrivals.Take(2_000).ToArray();
        var evenShare = chainArrivals.Count(a => a.PacketId % 2 == 0) / (double)chainArrivals.Length;
        Assert.InRange(evenShare, 2 / 3.0 * 0.95, 2 / 3.0 * 1.05);

        var total = chainAtTarget.Arrivals.Count + log.Count;
        var chainShare = chainAtTarget.Arrivals.Count / (double)total;
        var firstRecorderShare = log.Count(d => d.ServiceId == 0x0100) / (double)total;
        Assert.InRange(chainShare, 1 / 3.0 * 0.95, 1 / 3.0 * 1.05);
        Assert.InRange(firstRecorderShare, 1 / 3.0 * 0.95, 1 / 3.0 * 1.05);
    }

    [Fact]
    public void PacketsOlderThanTheirQueueLimitAreDroppedAndCounted()
    {
        var cube = InMemoryCube.Start(new TorusShape(3, 1, 1), n => n.Register(new ChainService(queue: new RoutingQueueOptions(TimeSpan.FromMilliseconds(1)))));
        var source = cube[new Coordinate(0, 0, 0)];
        for (var i = 0; i < 50; i++)
        {
            source.GetService<ChainService>()!.Send(i, K(1, 0, 0));
        }

        // The link carries 4 frames at a time; the others wait while virtual time passes.
        cube.Clock.Advance(TimeSpan.FromMilliseconds(5));
        cube.RunUntilIdle();
        var arrived = cube[new Coordinate(1, 0, 0)].GetService<ChainService>()!.Arrivals.Count;
        Assert.Equal(cube.Network.LinkCapacityFrames, arrived);
        Assert.Equal(50 - arrived, source.Counters.Dropped(DropReason.Expired));
    }

    [Fact]
    public void FThatThrowsOrReturnsNothingDropsThatPacketOnly()
    {
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3), n => n.Register(new ChainService()));
        var source = cube[new Coordinate(0, 0, 0)];
        var service = source.GetService<ChainService>()!;
        service.FOverride = (p, _) => BinaryPrimitives.ReadUInt16BigEndian(p.Payload[2..]) switch
        {
            1 => throw new InvalidOperationException("F is broken for this packet"),
            2 => 0,
            _ => 1,
        };
        Assert.Equal(RouteStatus.DroppedInvalid, service.Send(1));
        Assert.Equal(RouteStatus.DroppedInvalid, service.Send(2));
        Assert.Equal(1, source.Counters.Dropped(DropReason.RoutingFunctionFault));
        Assert.Equal(1, source.Counters.Dropped(DropReason.EmptyTargetSet));

        service.FOverride = null;
        service.Send(3, K(2, 2, 2));
        cube.RunUntilIdle();
        Assert.Single(cube[new Coordinate(2, 2, 2)].GetService<ChainService>()!.Arrivals);
    }

    [Fact]
    public void PacketsWaitingForALinkThatIsCutGoRoundIt()
    {
        var cube = InMemoryCube.Start(new TorusShape(4, 4, 4), n => n.Register(new ChainService()));
        var source = cube[new Coordinate(0, 0, 0)];
        var service = source.GetService<ChainService>()!;
        var target = new Coordinate(1, 0, 0);

        // The link carries a few frames at a time: most of these wait in the router for +x, each
        // with a target set of its own.
        for (var i = 0; i < 40; i++)
        {
            Assert.Equal(RouteStatus.Queued, service.Send(i, K(1, 0, 0, w: 5)));
        }

        Assert.True(service.PublicRouter.QueuedCount > 30);
        var onTheCable = source.GetServiceCounters(service.ServiceId)!.PacketsSent;
        cube.Network.CutLink(source.Self, LinkDirection.PlusX);
        cube.RunUntilIdle();

        // The waiting packets were queued again for K and went round the cut cable; only the
        // frames already on the cable were lost.
        var arrived = cube[target].GetService<ChainService>()!.Arrivals.Count;
        Assert.Equal(0, service.PublicRouter.QueuedCount);
        Assert.Equal(40 - onTheCable, arrived);
        Assert.All(cube.LiveNodes, n => Assert.Empty(n.GetService<ChainService>()!.BackToSenderViolations));
    }

    [Fact]
    public void ClassifyIsAskedOnlyOnceTheServiceHasQueuesToChooseFrom()
    {
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3), n => n.Register(new ChainService()));
        var source = cube[new Coordinate(0, 0, 0)];
        var service = source.GetService<ChainService>()!;
        var asked = 0;
        service.ClassifyHook = _ =>
        {
            asked++;
            return 7;
        };

        // The default queue alone: classify is not asked, so its answer cannot lose the packet.
        Assert.Equal(RouteStatus.Queued, service.Send(1, K(2, 2, 2)));
        cube.RunUntilIdle();
        Assert.Equal(0, asked);
        Assert.Single(cube[new Coordinate(2, 2, 2)].GetService<ChainService>()!.Arrivals);

        // With a second queue it is asked, and a queue that was never added drops that packet, counted.
        service.PublicRouter.AddQueue(1, new RoutingQueueOptions(TimeSpan.FromMinutes(1)));
        Assert.Equal(RouteStatus.DroppedInvalid, service.Send(2, K(2, 2, 2)));
        Assert.Equal(1, asked);
        Assert.Equal(1, source.Counters.Dropped(DropReason.RoutingFunctionFault));
    }

    [Fact]
    public void FReturningTheLocalCoordinateIsEvaluatedAgainHere()
    {
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3), n => n.Register(new ChainService()));
        var source = cube[new Coordinate(0, 0, 0)].GetService<ChainService>()!;
        source.Send(4, K(0, 0, 0), K(1, 0, 0));
        cube.RunUntilIdle();
        Assert.Equal(2, source.Evaluations.Count(e => e.PacketId == 4));
        Assert.Single(cube[new Coordinate(1, 0, 0)].GetService<ChainService>()!.Arrivals);
    }
}
