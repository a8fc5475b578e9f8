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
}
