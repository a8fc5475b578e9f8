using CamCube.Testing;

namespace CamCube.Runtime.Tests;

/// <summary>
/// A node whose own loop or timer thread stalls (a collection, a starved CPU) must not take its
/// pause for the silence of its neighbours: on the one-thread real-time cube such a stall used to
/// take every link down at once, dropping packets in flight and flushing cached items.
/// </summary>
public class LivenessPauseTests
{
    private const ushort Probe = 0x0100;
    private static readonly TimeSpan s_pause = TimeSpan.FromSeconds(1);

    [Fact]
    public void LinksStayUpWhenTheWholeLoopPausesPastTheHeartbeatTimeout()
    {
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3), n => n.Register(new RecordingService(Probe, [])));
        Assert.True(cube.AllLinksUp());
        foreach (var node in cube.LiveNodes)
        {
            node.GetService<RecordingService>()!.LinkChanges.Clear();
            node.GetService<RecordingService>()!.ReachabilityChanges.Clear();
        }

        // Every timer due during the pause fires at its end, as after a stalled loop thread: each
        // node's late heartbeat tick runs before the heartbeats queued behind it.
        cube.Clock.Advance(s_pause);
        cube.RunUntilIdle();
        cube.RunFor(TimeSpan.FromSeconds(1));

        Assert.True(cube.AllLinksUp());
        foreach (var node in cube.LiveNodes)
        {
            var service = node.GetService<RecordingService>()!;
            Assert.Empty(service.LinkChanges);
            Assert.Empty(service.ReachabilityChanges);
        }
    }

    [Fact]
    public void SilentNeighborIsStillDeclaredDownWithinTheTimeoutAfterAPause()
    {
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3));
        var node = cube[new Coordinate(0, 0, 0)];
        cube.Kill(new Coordinate(1, 0, 0));
        cube.Clock.Advance(s_pause);
        cube.RunUntilIdle();
        var resumed = cube.Clock.Elapsed;

        Assert.True(cube.RunUntil(() => !node.IsLinkUp(LinkDirection.PlusX), TimeSpan.FromSeconds(2)));
        Assert.InRange(cube.Clock.Elapsed - resumed, TimeSpan.Zero, node.Options.HeartbeatTimeout + node.Options.HeartbeatInterval);
    }
}
