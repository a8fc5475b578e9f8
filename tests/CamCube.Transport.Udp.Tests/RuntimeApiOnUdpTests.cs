using CamCube.Runtime.Tests.Shared;
using CamCube.Services;

namespace CamCube.Transport.Udp.Tests;

/// <summary>The runtime API of issue 15 on real nodes over UDP, each node on its own loop thread.</summary>
public sealed class RuntimeApiOnUdpTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(10);
    private static readonly TorusShape s_shape = new(3, 1, 1);

    [Fact]
    public async Task AsyncFunctionAwaitsItsReplyOnTheLoopWhenInvokedFromATestThreadOverUdp()
    {
        using var cube = UdpNodeCube.Start(s_shape, n => n.Register(new ApiProbeService()));
        var asker = new Coordinate(0, 0, 0);
        var probe = cube.On(asker, n => n.GetService<ApiProbeService>()!);

        var hops = await probe.EchoAsync(ProbeKeys.WithRootAt(s_shape, new Coordinate(2, 0, 0))).WaitAsync(s_timeout);

        Assert.Equal(1, hops);
        Assert.Equal("LoopSynchronizationContext", cube.On(asker, _ => probe.ResumedOn));
        Assert.Equal(asker, await probe.WhereAsync().WaitAsync(s_timeout));
    }

    [Fact]
    public void OwnershipChangeNamesTheWatchedKeyWhoseRootFailedOverUdp()
    {
        using var cube = UdpNodeCube.Start(s_shape, n => n.Register(new ApiProbeService()));
        var watcher = new Coordinate(0, 0, 0);
        var victim = new Coordinate(2, 0, 0);
        var probe = cube.On(watcher, n => n.GetService<ApiProbeService>()!);
        var moved = ProbeKeys.WithRootAt(s_shape, victim);
        var version = cube.On(watcher, n =>
        {
            probe.Watch(1, moved, ProbeKeys.WithRootAt(s_shape, new Coordinate(1, 0, 0)));
            return n.Reachability.Version;
        });

        cube.Kill(victim);

        cube.WaitUntil(() => cube.On(watcher, _ => probe.OwnershipChanges.Count) == 1);
        var (changed, versionNow) = cube.On(watcher, n => (probe.OwnershipChanges[0].Changed, n.Reachability.Version));
        Assert.Equal([KeySpace.For(s_shape).KeyCoordinateOf(moved)], changed);
        Assert.NotEqual(version, versionNow);
    }

    [Fact]
    public void SenderHearsWhereItsPacketRanOutOfHopsOverUdp()
    {
        var shape = new TorusShape(4, 1, 1);
        using var cube = UdpNodeCube.Start(shape, n => n.Register(new ApiProbeService()), () =>
        {
            var options = UdpNodeCube.DefaultOptions();
            options.HopLimit = 1;
            return options;
        });
        var sender = new Coordinate(0, 0, 0);
        var probe = cube.On(sender, n => n.GetService<ApiProbeService>()!);

        // Best effort both ways (the packet out, its drop notice back): sent again until a notice arrives.
        var sent = UdpNodeCube.SendUntil(() => cube.On(sender, _ => probe.SendDatagram(new Coordinate(2, 0, 0), 11)), () => cube.On(sender, _ => probe.Drops.Count) > 0);

        Assert.True(cube.On(sender, _ => probe.Drops.Count) > 0, $"No drop notice for {sent} packets; {cube.DescribeDrops()}");
        var drop = cube.On(sender, _ => probe.Drops[0]);
        Assert.Equal((DropReason.HopLimitExceeded, 1, (byte)1), (drop.Reason, shape.Distance(sender, drop.At), drop.Hops));
        Assert.Equal([3, 11], drop.Prefix);
    }

    [Fact]
    public void BurstFillsTheServicesOwnQueueCapacityAndTheServiceReadsItsDepthAndRoomOverUdp()
    {
        using var cube = UdpNodeCube.Start(s_shape, n => n.Register(new ApiProbeService(), 1, sendQueuePacketsMax: 5));
        var sender = new Coordinate(0, 0, 0);
        var probe = cube.On(sender, n => n.GetService<ApiProbeService>()!);

        var (queued, full, depth, room, sent) = cube.On(sender, n =>
        {
            var (q, f, d, r) = probe.Burst(new Coordinate(1, 0, 0), LinkDirection.PlusX, 200);
            return (q, f, d, r, (int)n.GetServiceCounters(ApiProbeService.Id)!.PacketsSent);
        });

        Assert.Equal((5 + sent, 200 - 5 - sent, 5, false), (queued, full, depth, room));
        cube.WaitUntil(() => cube.On(sender, _ => probe.Context.QueuedPacketCount) == 0);
    }

    [Fact]
    public void PacketRoutedFromAKeyCoordinateIsEvaluatedFirstAtItsRootOverUdp()
    {
        using var cube = UdpNodeCube.Start(s_shape, n => n.Register(new RoutedProbeService()));
        var sender = new Coordinate(0, 0, 0);
        var from = new KeyCoordinate(1, 0, 0, 5);
        var target = new KeyCoordinate(2, 0, 0, 7);

        // A routed packet is best effort and UDP may lose it (a link judged down for a moment on a
        // busy host drops it), so it is sent again, a bounded number of times, until one arrives.
        var sent = UdpNodeCube.SendUntil(
            () => cube.On(sender, n => n.GetService<RoutedProbeService>()!.SendFrom(from, target)),
            () => cube.On(target.Home, n => n.GetService<RoutedProbeService>()!.Arrivals) > 0);

        var arrivals = cube.On(target.Home, n => n.GetService<RoutedProbeService>()!.Arrivals);
        Assert.True(arrivals > 0, $"None of {sent} packets arrived; drop notices at the sender: [{string.Join(", ", cube.On(sender, n => n.GetService<RoutedProbeService>()!.Drops.ToArray()))}]; {cube.DescribeDrops()}");
        var atRoot = cube.On(from.Home, n => n.GetService<RoutedProbeService>()!.Evaluations.ToArray());
        Assert.NotEmpty(atRoot);
        Assert.All(atRoot, e => Assert.Equal((from.Home, from), e));
        Assert.Empty(cube.On(sender, n => n.GetService<RoutedProbeService>()!.Evaluations.ToArray()));
        Assert.Empty(cube.On(target.Home, n => n.GetService<RoutedProbeService>()!.Evaluations.ToArray()));
    }

    [Fact]
    public void RemovedQueueDropsWhatWaitsInItOverUdp()
    {
        using var cube = UdpNodeCube.Start(s_shape, n => n.Register(new RoutedProbeService()));
        var sender = new Coordinate(0, 0, 0);

        var (waiting, removed, left, shutdown) = cube.On(sender, n =>
        {
            var probe = n.GetService<RoutedProbeService>()!;
            probe.PublicRouter.AddQueue(1, new RoutingQueueOptions(TimeSpan.FromMinutes(1)));
            for (var i = 0; i < 200; i++)
            {
                probe.SendFrom(KeyCoordinate.At(sender, 1), new KeyCoordinate(1, 0, 0, 3), queue: 1);
            }

            var waiting = probe.PublicRouter.QueuedCount;
            var before = n.Counters.Dropped(DropReason.Shutdown);
            var removed = probe.PublicRouter.RemoveQueue(1);
            return (waiting, removed, probe.PublicRouter.QueuedCount, n.Counters.Dropped(DropReason.Shutdown) - before);
        });

        Assert.True(waiting > 0);
        Assert.Equal((true, 0, (long)waiting), (removed, left, shutdown));
    }
}
