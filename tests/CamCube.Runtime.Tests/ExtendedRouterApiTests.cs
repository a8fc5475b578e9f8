using CamCube.Runtime.Tests.Shared;
using CamCube.Services;
using CamCube.Testing;

namespace CamCube.Runtime.Tests;

/// <summary>The extended router's Route from a key coordinate and RemoveQueue (in memory; the simulator and UDP suites run the same probe).</summary>
public class ExtendedRouterApiTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_sender = new(0, 0, 0);

    [Fact]
    public void PacketRoutedFromAKeyCoordinateIsEvaluatedFirstAtThatCoordinatesRoot()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new RoutedProbeService()));
        var from = new KeyCoordinate(1, 1, 0, 5);
        var target = new KeyCoordinate(2, 2, 2, 7);

        Assert.Equal(RouteStatus.Queued, cube[s_sender].GetService<RoutedProbeService>()!.SendFrom(from, target));
        cube.RunUntilIdle();

        Assert.Equal([(new Coordinate(1, 1, 0), from)], cube.LiveNodes.SelectMany(n => n.GetService<RoutedProbeService>()!.Evaluations));
        Assert.Equal(1, cube[target.Home].GetService<RoutedProbeService>()!.Arrivals);
    }

    [Fact]
    public void RemovedQueueDropsWhatWaitsInItAndIsGone()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new RoutedProbeService()));
        var node = cube[s_sender];
        var probe = node.GetService<RoutedProbeService>()!;
        var router = probe.PublicRouter;
        router.AddQueue(1, new RoutingQueueOptions(TimeSpan.FromMinutes(1)));
        for (var i = 0; i < 20; i++)
        {
            probe.SendFrom(KeyCoordinate.At(s_sender, 1), new KeyCoordinate(1, 0, 0, 3), queue: 1);
        }

        var waiting = router.QueuedCount;
        var shutdownBefore = node.Counters.Dropped(DropReason.Shutdown);

        Assert.True(router.RemoveQueue(1));

        Assert.True(waiting > 0);
        Assert.Equal((0, shutdownBefore + waiting), (router.QueuedCount, node.Counters.Dropped(DropReason.Shutdown)));
        Assert.False(router.RemoveQueue(1));
        Assert.Throws<ArgumentException>(() => router.RemoveQueue(0));
    }

    [Fact]
    public void RoutingQueueRefusesPacketsPastItsOwnCapacityAsQueueFull()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new RoutedProbeService()));
        var node = cube[s_sender];
        var probe = node.GetService<RoutedProbeService>()!;
        probe.PublicRouter.AddQueue(1, new RoutingQueueOptions(TimeSpan.FromMinutes(1), PacketsMax: 5));
        var fullBefore = node.Counters.Dropped(DropReason.QueueFull);

        var statuses = Enumerable.Range(0, 20)
            .Select(_ => probe.SendFrom(KeyCoordinate.At(s_sender, 1), new KeyCoordinate(1, 0, 0, 3), queue: 1))
            .ToList();

        // What the link takes at once leaves the queue; the rest waits, at most five, and past that is refused.
        var accepted = statuses.Count(s => s == RouteStatus.Queued);
        var refused = statuses.Count(s => s == RouteStatus.DroppedQueueFull);
        Assert.Equal(5, probe.PublicRouter.QueuedCount);
        Assert.Equal(20, accepted + refused);
        Assert.InRange(refused, 1, 15);
        Assert.Equal(fullBefore + refused, node.Counters.Dropped(DropReason.QueueFull));
        cube.RunUntilIdle();
        Assert.Equal(accepted, cube[new Coordinate(1, 0, 0)].GetService<RoutedProbeService>()!.Arrivals);
    }
}
