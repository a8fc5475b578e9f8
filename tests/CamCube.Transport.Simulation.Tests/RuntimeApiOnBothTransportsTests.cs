using CamCube.Runtime;
using CamCube.Runtime.Tests.Shared;
using CamCube.Services;
using CamCube.Testing;

namespace CamCube.Transport.Simulation.Tests;

/// <summary>The runtime API of issue 15 (posting onto the loop, ownership changes, ...), the same cases in memory and in the simulator.</summary>
public sealed class RuntimeApiOnBothTransportsTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_asker = new(0, 0, 0);

    public static TheoryData<TestTransport> Transports => [TestTransport.InMemory, TestTransport.Simulator];

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task AsyncFunctionAwaitsItsReplyOnTheLoopWhenInvokedFromOutsideOnEitherTransport(TestTransport transport)
    {
        var cube = TestCube.Start(transport, s_shape, n => n.Register(new ApiProbeService()));
        var probe = cube[s_asker].GetService<ApiProbeService>()!;

        var echo = probe.EchoAsync(ProbeKeys.WithRootAt(s_shape, new Coordinate(2, 1, 1)));

        Assert.True(cube.RunUntil(() => echo.IsCompleted, TimeSpan.FromSeconds(1)));
        Assert.Equal(3, await echo);
        Assert.Equal("LoopSynchronizationContext", probe.ResumedOn);
        Assert.Equal(s_asker, await RunToCompletion(cube, probe.WhereAsync()));
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public void OwnershipChangeNamesTheWatchedKeyWhoseRootFailedOnEitherTransport(TestTransport transport)
    {
        var cube = TestCube.Start(transport, s_shape, n => n.Register(new ApiProbeService()));
        var node = cube[s_asker];
        var probe = node.GetService<ApiProbeService>()!;
        var victim = new Coordinate(1, 2, 1);
        var moved = ProbeKeys.WithRootAt(s_shape, victim);
        probe.Watch(1, moved, ProbeKeys.WithRootAt(s_shape, new Coordinate(2, 2, 2)));
        var version = node.Reachability.Version;

        cube.Kill(victim);

        Assert.True(cube.RunUntil(() => probe.OwnershipChanges.Count > 0, TimeSpan.FromSeconds(5)));
        var (_, changed) = Assert.Single(probe.OwnershipChanges);
        Assert.Equal([node.KeySpace.KeyCoordinateOf(moved)], changed);
        Assert.NotEqual(version, node.Reachability.Version);
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public void SenderHearsWhereItsPacketRanOutOfHopsOnEitherTransport(TestTransport transport)
    {
        var cube = TestCube.Start(transport, s_shape, n => n.Register(new ApiProbeService()), () => new NodeOptions { PublishMetrics = false, HopLimit = 1 });
        var probe = cube[s_asker].GetService<ApiProbeService>()!;

        probe.SendDatagram(new Coordinate(1, 1, 1), 9);

        Assert.True(cube.RunUntil(() => probe.Drops.Count > 0, TimeSpan.FromSeconds(1)));
        var drop = Assert.Single(probe.Drops);
        Assert.Equal((DropReason.HopLimitExceeded, 1, (byte)1), (drop.Reason, s_shape.Distance(s_asker, drop.At), drop.Hops));
        Assert.Equal([3, 9], drop.Prefix);
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public void BurstFillsTheServicesOwnQueueCapacityAndTheServiceReadsItsDepthAndRoomOnEitherTransport(TestTransport transport)
    {
        var cube = TestCube.Start(transport, s_shape, n => n.Register(new ApiProbeService(), 1, sendQueuePacketsMax: 5));
        var node = cube[s_asker];
        var probe = node.GetService<ApiProbeService>()!;

        var (queued, full, depth, room) = probe.Burst(new Coordinate(1, 0, 0), LinkDirection.PlusX, 50);

        var sent = (int)node.GetServiceCounters(ApiProbeService.Id)!.PacketsSent;
        Assert.Equal((5 + sent, 50 - 5 - sent, 5, false), (queued, full, depth, room));
        Assert.True(cube.RunUntil(() => probe.Context.QueuedPacketCount == 0, TimeSpan.FromSeconds(1)));
        Assert.True(cube.RunUntil(() => probe.Context.HasLinkRoom(LinkDirection.PlusX), TimeSpan.FromSeconds(1)));
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public void PacketRoutedFromAKeyCoordinateIsEvaluatedFirstAtItsRootOnEitherTransport(TestTransport transport)
    {
        var cube = TestCube.Start(transport, s_shape, n => n.Register(new RoutedProbeService()));
        var from = new KeyCoordinate(1, 1, 0, 5);
        var target = new KeyCoordinate(2, 2, 2, 7);
        var arrived = cube[target.Home].GetService<RoutedProbeService>()!;

        cube[s_asker].GetService<RoutedProbeService>()!.SendFrom(from, target);

        Assert.True(cube.RunUntil(() => arrived.Arrivals == 1, TimeSpan.FromSeconds(1)));
        var evaluator = cube[from.Home].GetService<RoutedProbeService>()!;
        Assert.Equal([(from.Home, from)], evaluator.Evaluations);
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public void RemovedQueueDropsWhatWaitsInItOnEitherTransport(TestTransport transport)
    {
        var cube = TestCube.Start(transport, s_shape, n => n.Register(new RoutedProbeService()));
        var node = cube[s_asker];
        var probe = node.GetService<RoutedProbeService>()!;
        probe.PublicRouter.AddQueue(1, new RoutingQueueOptions(TimeSpan.FromMinutes(1)));
        for (var i = 0; i < 50; i++)
        {
            probe.SendFrom(KeyCoordinate.At(s_asker, 1), new KeyCoordinate(1, 0, 0, 3), queue: 1);
        }

        var waiting = probe.PublicRouter.QueuedCount;
        var shutdownBefore = node.Counters.Dropped(DropReason.Shutdown);

        Assert.True(probe.PublicRouter.RemoveQueue(1));
        Assert.True(waiting > 0);
        Assert.Equal((0, shutdownBefore + waiting), (probe.PublicRouter.QueuedCount, node.Counters.Dropped(DropReason.Shutdown)));
    }

    private static async Task<T> RunToCompletion<T>(ITestCube cube, Task<T> task)
    {
        Assert.True(cube.RunUntil(() => task.IsCompleted, TimeSpan.FromSeconds(1)));
        return await task;
    }
}
