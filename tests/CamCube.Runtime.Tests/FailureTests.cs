using CamCube.Services;
using CamCube.Testing;

namespace CamCube.Runtime.Tests;

public class FailureTests
{
    private const ushort Probe = 0x0100;

    [Fact]
    public void ServerRoutedPacketsToAFailedServerAreDroppedAndCountedNeverDeliveredElsewhere()
    {
        var shape = new TorusShape(3, 3, 3);
        var log = new List<Delivery>();
        var cube = InMemoryCube.Start(shape, n => n.Register(new RecordingService(Probe, log)));
        var dead = new Coordinate(1, 1, 1);
        cube.Kill(dead);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));

        var sender = cube[new Coordinate(0, 0, 0)];
        for (var i = 0; i < 10; i++)
        {
            Assert.Equal(RouteStatus.DroppedUnreachable, sender.GetService<RecordingService>()!.SendToServer(dead, i));
        }

        cube.RunUntilIdle();
        Assert.Empty(log);
        Assert.Equal(10, sender.Counters.Dropped(DropReason.Unreachable));
    }

    [Fact]
    public void ViewsConvergeAfterAFailureAndAfterARecovery()
    {
        var shape = new TorusShape(4, 4, 4);
        var log = new List<Delivery>();
        var cube = InMemoryCube.Start(shape, n => n.Register(new RecordingService(Probe, log)));
        var victim = new Coordinate(2, 1, 3);

        cube.Kill(victim);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        Assert.All(cube.LiveNodes, n => Assert.False(n.Reachability.IsReachable(victim)));
        Assert.All(cube.LiveNodes, n => Assert.Equal(63, n.Reachability.ReachableCount));

        cube.Restart(victim);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        Assert.All(cube.LiveNodes, n => Assert.Equal(64, n.Reachability.ReachableCount));
    }

    [Fact]
    public void FailuresAndRecoveriesAreAnnouncedToEveryLocalService()
    {
        var shape = new TorusShape(3, 3, 3);
        var log = new List<Delivery>();
        var cube = InMemoryCube.Start(shape, n => n.Register(new RecordingService(Probe, log)));
        var victim = new Coordinate(1, 0, 0);
        var neighbor = cube[new Coordinate(0, 0, 0)].GetService<RecordingService>()!;
        var far = cube[new Coordinate(2, 2, 2)].GetService<RecordingService>()!;

        cube.Kill(victim);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        Assert.Contains((LinkDirection.PlusX, false), neighbor.LinkChanges);
        Assert.Contains((victim, false), neighbor.ReachabilityChanges);
        Assert.Contains((victim, false), far.ReachabilityChanges);

        cube.Restart(victim);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        Assert.Contains((LinkDirection.PlusX, true), neighbor.LinkChanges);
        Assert.Contains((victim, true), far.ReachabilityChanges);
    }

    [Fact]
    public void CutCableIsRoutedAroundAndItsViewsStayWhole()
    {
        var shape = new TorusShape(3, 3, 3);
        var log = new List<Delivery>();
        var cube = InMemoryCube.Start(shape, n => n.Register(new RecordingService(Probe, log)));
        cube.Network.CutLink(new Coordinate(0, 0, 0), LinkDirection.PlusX);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        Assert.False(cube[new Coordinate(0, 0, 0)].IsLinkUp(LinkDirection.PlusX));
        Assert.False(cube[new Coordinate(1, 0, 0)].IsLinkUp(LinkDirection.MinusX));

        cube[new Coordinate(0, 0, 0)].GetService<RecordingService>()!.SendToServer(new Coordinate(1, 0, 0), 7);
        cube.RunUntilIdle();
        var delivery = Assert.Single(log);
        Assert.Equal(new Coordinate(1, 0, 0), delivery.At);
        // Around the x ring the other way: (0,0,0) -> (2,0,0) -> (1,0,0).
        Assert.Equal(2, delivery.HopCount);
    }

    [Fact]
    public void SilentNeighborIsDeclaredDownAfterTheHeartbeatTimeout()
    {
        var shape = new TorusShape(3, 3, 3);
        var cube = InMemoryCube.Start(shape);
        var start = cube.Clock.Elapsed;
        cube.Kill(new Coordinate(1, 0, 0));
        var node = cube[new Coordinate(0, 0, 0)];
        Assert.True(node.IsLinkUp(LinkDirection.PlusX));
        Assert.True(cube.RunUntil(() => !node.IsLinkUp(LinkDirection.PlusX), TimeSpan.FromSeconds(2)));
        var detected = cube.Clock.Elapsed - start;
        Assert.InRange(detected, node.Options.HeartbeatTimeout, node.Options.HeartbeatTimeout + node.Options.HeartbeatInterval);
    }

    [Fact]
    public void PartitionedServersAreUnreachableUntilHealed()
    {
        var shape = new TorusShape(4, 1, 1);
        var cube = InMemoryCube.Start(shape);
        cube.Network.CutLink(new Coordinate(0, 0, 0), LinkDirection.PlusX);
        cube.Network.CutLink(new Coordinate(2, 0, 0), LinkDirection.PlusX);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        Assert.Equal(2, cube[new Coordinate(0, 0, 0)].Reachability.ReachableCount);
        Assert.False(cube[new Coordinate(1, 0, 0)].Reachability.IsReachable(new Coordinate(0, 0, 0)));

        cube.Network.RestoreLink(new Coordinate(0, 0, 0), LinkDirection.PlusX);
        cube.Network.RestoreLink(new Coordinate(2, 0, 0), LinkDirection.PlusX);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        Assert.Equal(4, cube[new Coordinate(1, 0, 0)].Reachability.ReachableCount);
    }
}

public class LinkStateStabilityTests
{
    [Fact]
    public void NoLinkStateUpdatesFlowOnceTheCubeIsQuiet()
    {
        var cube = InMemoryCube.Start(new TorusShape(4, 4, 4));
        cube.Kill(new Coordinate(1, 1, 1));
        cube.Restart(new Coordinate(1, 1, 1));
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        cube.RunFor(TimeSpan.FromSeconds(1));
        long Updates() => cube.LiveNodes.Sum(n => n.GetServiceCounters(Services.ServiceIds.LinkState)!.PacketsSent);
        var before = Updates();
        cube.RunFor(TimeSpan.FromSeconds(3));
        Assert.Equal(before, Updates());
    }

    [Fact]
    public void ARestartCostsABoundedNumberOfLinkStateFrames()
    {
        var cube = InMemoryCube.Start(new TorusShape(4, 4, 4));
        long Updates() => cube.LiveNodes.Sum(n => n.GetServiceCounters(Services.ServiceIds.LinkState)!.PacketsSent);
        cube.Kill(new Coordinate(1, 1, 1));
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        var before = Updates();
        cube.Restart(new Coordinate(1, 1, 1));
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        cube.RunFor(TimeSpan.FromSeconds(1));

        // Each of the 384 links carries a handful of frames (synchronisation and a few floods; about
        // 3,100 in all today), not an echo storm that grows without end.
        var frames = Updates() - before;
        Assert.True(frames < 64 * 6 * 16, $"{frames} link-state frames for one restart");
    }

    [Fact]
    public void RestartedServersLinksComeUpAtOnceOnBothEnds()
    {
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3));
        cube.Kill(new Coordinate(2, 2, 2));
        Assert.True(cube.RunUntil(() => !cube[new Coordinate(1, 2, 2)].IsLinkUp(LinkDirection.PlusX), TimeSpan.FromSeconds(2)));
        var restartedAt = cube.Clock.Elapsed;
        cube.Restart(new Coordinate(2, 2, 2));

        // No virtual time passes: the first heartbeats and their immediate answers bring every link up.
        Assert.Equal(restartedAt, cube.Clock.Elapsed);
        Assert.True(cube.AllLinksUp());
    }
}
