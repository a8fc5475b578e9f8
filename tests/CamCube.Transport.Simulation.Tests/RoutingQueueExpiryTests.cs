using CamCube.Runtime.Tests.Shared;
using CamCube.Services;
using CamCube.Testing;

namespace CamCube.Transport.Simulation.Tests;

/// <summary>A packet that waits in an extended-routing queue past the queue's time limit is dropped as Expired, and its sender hears of it.</summary>
public sealed class RoutingQueueExpiryTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_sender = new(0, 0, 0);

    [Fact]
    public void SenderHearsOfEveryPacketThatOutwaitedItsQueuesTimeLimitWhenTheLinkIsSlower()
    {
        var cube = SimulatedCube.Start(s_shape, n => n.Register(new RoutedProbeService()));
        var node = cube[s_sender];
        var probe = node.GetService<RoutedProbeService>()!;
        var target = cube[new Coordinate(1, 0, 0)].GetService<RoutedProbeService>()!;
        // A 1 Gbps link sends a small frame in about a microsecond: 200 frames cannot all leave within 20 us.
        probe.PublicRouter.AddQueue(1, new RoutingQueueOptions(TimeSpan.FromMicroseconds(20)));
        var expiredBefore = node.Counters.Dropped(DropReason.Expired);

        for (var i = 0; i < 200; i++)
        {
            probe.SendFrom(KeyCoordinate.At(s_sender, 1), new KeyCoordinate(1, 0, 0, 3), queue: 1);
        }

        Assert.True(cube.RunUntil(() => target.Arrivals + probe.Drops.Count == 200, TimeSpan.FromSeconds(1)));
        var expired = node.Counters.Dropped(DropReason.Expired) - expiredBefore;
        Assert.InRange(expired, 1, 199);
        Assert.Equal(Enumerable.Repeat(DropReason.Expired, (int)expired), probe.Drops);
        Assert.Equal(200 - expired, target.Arrivals);
    }
}
