using CamCube.Runtime.Tests.Shared;
using CamCube.Services;
using CamCube.Testing;

namespace CamCube.Runtime.Tests;

/// <summary>A sending service hears of its dropped packets (in memory; the simulator and UDP suites run the same probe).</summary>
public class DropNoticeTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_sender = new(0, 0, 0);

    [Fact]
    public void SenderHearsWhereAndWhyItsPacketDiedWhenTheHopLimitRunsOutOnTheWay()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new ApiProbeService()), new InMemoryCubeOptions { NodeOptions = () => new NodeOptions { PublishMetrics = false, HopLimit = 1 } });
        var probe = cube[s_sender].GetService<ApiProbeService>()!;
        var target = new Coordinate(1, 1, 0);

        Assert.Equal(RouteStatus.Queued, probe.SendDatagram(target, 42));
        Assert.True(cube.RunUntil(() => probe.Drops.Count > 0, TimeSpan.FromSeconds(1)));

        var drop = Assert.Single(probe.Drops);
        Assert.Equal(DropReason.HopLimitExceeded, drop.Reason);
        Assert.Equal(1, s_shape.Distance(s_sender, drop.At));
        Assert.Equal((KeyCoordinate.At(target, 0), (byte)1, 2), (drop.Destination, drop.Hops, drop.PayloadLength));
        Assert.Equal([3, 42], drop.Prefix);
    }

    [Fact]
    public void SenderHearsInALaterTurnWhenItsPacketIsForAServerKnownToHaveFailed()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new ApiProbeService()));
        var probe = cube[s_sender].GetService<ApiProbeService>()!;
        var victim = new Coordinate(2, 2, 2);
        cube.Kill(victim);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));

        Assert.Equal(RouteStatus.DroppedUnreachable, probe.SendDatagram(victim, 7));
        Assert.Empty(probe.Drops);
        cube.RunUntilIdle();

        var drop = Assert.Single(probe.Drops);
        Assert.Equal((DropReason.Unreachable, s_sender, (byte)0), (drop.Reason, drop.At, drop.Hops));
        Assert.Equal([3, 7], drop.Prefix);
    }

    [Fact]
    public void NoNoticeIsSentForAServiceThatDoesNotHearOfDrops()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new RecordingService(0x0100, [])), new InMemoryCubeOptions { NodeOptions = () => new NodeOptions { PublishMetrics = false, HopLimit = 1 } });
        var sender = cube[s_sender].GetService<RecordingService>()!;

        sender.SendToServer(new Coordinate(1, 1, 0), 5);
        cube.RunUntilIdle();

        Assert.Equal(1, cube.LiveNodes.Sum(n => n.Counters.Dropped(DropReason.HopLimitExceeded)));
        Assert.Equal(0, cube.LiveNodes.Sum(n => n.GetServiceCounters(ServiceIds.DropNotice)!.PacketsSent));
    }

    [Fact]
    public void FloodOfDropsSendsNoticesOnlyUpToTheNodesRateAndCountsTheRestAsSuppressed()
    {
        var (cube, probe, victim) = StartWithDeadServer(dropNoticesPerSecondMax: 10);
        var node = cube[s_sender];

        for (var i = 0; i < 50; i++)
        {
            Assert.Equal(RouteStatus.DroppedUnreachable, probe.SendDatagram(victim, (byte)i));
        }

        cube.RunUntilIdle();

        Assert.Equal(10, probe.Drops.Count);
        Assert.Equal(Enumerable.Range(0, 10).Select(i => (byte)i), probe.Drops.Select(d => d.Prefix[1]));
        Assert.Equal((50L, 40L), (node.Counters.Dropped(DropReason.Unreachable), node.Counters.DropNoticesSuppressed));
    }

    [Fact]
    public void NoticesResumeAtTheRateWhenTheClockMovesOnAfterAFlood()
    {
        var (cube, probe, victim) = StartWithDeadServer(dropNoticesPerSecondMax: 10);
        for (var i = 0; i < 30; i++)
        {
            probe.SendDatagram(victim, 1);
        }

        cube.RunUntilIdle();
        cube.RunFor(TimeSpan.FromMilliseconds(500));
        for (var i = 0; i < 30; i++)
        {
            probe.SendDatagram(victim, 2);
        }

        cube.RunUntilIdle();

        // Half a second refills half the bucket: 5 more notices, never the full 10 again so soon.
        Assert.Equal((10, 5), (probe.Drops.Count(d => d.Prefix[1] == 1), probe.Drops.Count(d => d.Prefix[1] == 2)));
        Assert.Equal(45, cube[s_sender].Counters.DropNoticesSuppressed);
    }

    [Fact]
    public void NodeRefusesANegativeDropNoticeRateNamingTheSetting()
    {
        var error = Assert.Throws<ArgumentOutOfRangeException>(() => new NodeOptions { DropNoticesPerSecondMax = -1 }.Validate());
        Assert.Equal(nameof(NodeOptions.DropNoticesPerSecondMax), error.ParamName);
    }

    private static (InMemoryCube Cube, ApiProbeService Probe, Coordinate Victim) StartWithDeadServer(int dropNoticesPerSecondMax)
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new ApiProbeService()), new InMemoryCubeOptions { NodeOptions = () => new NodeOptions { PublishMetrics = false, DropNoticesPerSecondMax = dropNoticesPerSecondMax } });
        var victim = new Coordinate(2, 2, 2);
        cube.Kill(victim);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        return (cube, cube[s_sender].GetService<ApiProbeService>()!, victim);
    }
}
