using CamCube.Runtime.Tests.Shared;
using CamCube.Testing;

namespace CamCube.Runtime.Tests;

/// <summary>A capacity per service queue, and a service reading its queue's depth and its links' room (in memory; the simulator and UDP suites run the same probe).</summary>
public class QueueCapacityTests
{
    private static readonly Coordinate s_sender = new(0, 0, 0);
    private static readonly Coordinate s_neighbor = new(1, 0, 0);

    [Fact]
    public void BurstFillsTheServicesOwnQueueCapacityAndTheServiceReadsItsDepthAndTheLinksRoom()
    {
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3), n => n.Register(new ApiProbeService(), 1, sendQueuePacketsMax: 3), new InMemoryCubeOptions { LinkCapacityFrames = 1 });
        var node = cube[s_sender];
        var probe = node.GetService<ApiProbeService>()!;

        var (queued, full, depth, room) = probe.Burst(s_neighbor, LinkDirection.PlusX, 10);

        var sent = node.GetServiceCounters(ApiProbeService.Id)!.PacketsSent;
        Assert.Equal((3 + (int)sent, 10 - 3 - (int)sent, 3, false), (queued, full, depth, room));
        Assert.Equal(3, probe.Context.SendQueuePacketsMax);
        cube.RunUntilIdle();
        Assert.Equal((0, true), (probe.Context.QueuedPacketCount, probe.Context.HasLinkRoom(LinkDirection.PlusX)));
    }

    [Fact]
    public void CapacityBelowOneIsRefusedAtRegistration()
    {
        var cube = InMemoryCube.Start(new TorusShape(2, 1, 1));

        var refused = Assert.Throws<ArgumentOutOfRangeException>(() => cube[s_sender].Register(new ApiProbeService(), 1, 0));

        Assert.Equal("sendQueuePacketsMax", refused.ParamName);
    }
}
