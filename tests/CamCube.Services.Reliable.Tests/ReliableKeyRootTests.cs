using CamCube.Testing;

namespace CamCube.Services.Reliable.Tests;

public sealed class ReliableKeyRootTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_sender = new(0, 0, 0);
    private static readonly Coordinate s_home = new(1, 1, 1);
    private static readonly KeyCoordinate s_key = KeyCoordinate.At(s_home, 5);

    [Fact]
    public async Task TransferResumesAtTheNewRootWhenTheRootDiesBeforeItCouldHaveHadItAll()
    {
        // 5 MB take 40 ms on the simulator's 1 Gbps links: the root dies a quarter of the way in.
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 11 });
        var body = ReliableCube.Payload(11, 0, 5_000_000);
        var sent = cube.EndpointOf(s_sender).SendAsync(s_key, body);
        cube.Cube.RunFor(TimeSpan.FromMilliseconds(10));
        Assert.False(sent.IsCompleted);

        cube.Cube.Kill(s_home);
        Assert.True(cube.Cube.RunUntil(() => sent.IsCompleted, TimeSpan.FromSeconds(2)));

        await sent;
        var root = cube.Cube.TrueRoot(s_key);
        Assert.NotEqual(s_home, root);
        var received = Assert.Single(cube.InboxOf(root).Messages);
        Assert.Equal(body, received.Body);
        Assert.Equal(s_key, received.Key);
        Assert.Empty(cube.InboxOf(s_home).Messages);
        Assert.Equal(1, cube.Cube.LiveNodes.Sum(n => cube.InboxOf(n.Self).Messages.Count));
    }

    [Fact]
    public async Task TransferFailsWithOutcomeUnknownWhenTheRootDiesAfterItHadTheWholeMessage()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 12 });
        var sent = cube.EndpointOf(s_sender).SendAsync(s_key, new byte[100]);

        // Stop the moment the root has delivered it, before its acknowledgement is back.
        Assert.True(cube.Cube.RunUntil(() => cube.InboxOf(s_home).Messages.Count == 1, TimeSpan.FromSeconds(1)));
        Assert.False(sent.IsCompleted);
        cube.Cube.Kill(s_home);
        Assert.True(cube.Cube.RunUntil(() => sent.IsCompleted, TimeSpan.FromSeconds(2)));

        var error = await Assert.ThrowsAsync<ReliableTransferException>(() => sent);
        Assert.Equal(ReliableFailure.OutcomeUnknown, error.Reason);
        Assert.Equal(0, cube.Cube.LiveNodes.Sum(n => cube.InboxOf(n.Self).Messages.Count));
    }

    [Fact]
    public async Task TransferStaysWithTheRootItBeganAtWhenTheHomeServerReturnsMidway()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 13 });
        cube.Cube.Kill(s_home);
        Assert.True(cube.Cube.RunUntil(cube.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        var firstRoot = cube.Cube.TrueRoot(s_key);
        var body = ReliableCube.Payload(13, 0, 5_000_000);
        var sent = cube.EndpointOf(s_sender).SendAsync(s_key, body);
        cube.Cube.RunFor(TimeSpan.FromMilliseconds(10));
        Assert.False(sent.IsCompleted);

        cube.Cube.Restart(s_home);
        Assert.True(cube.Cube.RunUntil(() => sent.IsCompleted, TimeSpan.FromSeconds(2)));

        await sent;
        Assert.Equal(s_home, cube.Cube.TrueRoot(s_key));
        Assert.Equal(body, Assert.Single(cube.InboxOf(firstRoot).Messages).Body);
        Assert.Empty(cube.InboxOf(s_home).Messages);
    }

    [Fact]
    public async Task NewFlowToAKeyResumesAtTheNewRootWhenTheRootWasDeadBeforeTheSenderHeard()
    {
        // The home server is dead but the sender has not heard yet. A new flow to a key sends one
        // packet until the root answers, so the 50 KB message cannot have reached the dead root
        // whole and resumes at the new one.
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 14 });
        cube.Cube.Kill(s_home);
        var sent = cube.EndpointOf(s_sender).SendAsync(s_key, ReliableCube.Payload(14, 0, 50_000));

        Assert.True(cube.Cube.RunUntil(() => sent.IsCompleted, TimeSpan.FromSeconds(2)));

        await sent;
        Assert.Single(cube.InboxOf(cube.Cube.TrueRoot(s_key)).Messages);
    }

    [Fact]
    public async Task OnePacketMessageToAKeyIsSentToTheRootANotRootAnswerNamesWhenViewsDiffer()
    {
        // The home server is back; the stand-in root the sender still believes in has heard, the sender
        // not yet. The stand-in answers NotRoot: it accepted nothing, so the one-packet message goes on
        // to the home server (it was dropped unsent and its send never completed).
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 15 });
        cube.Cube.Kill(s_home);
        Assert.True(cube.Cube.RunUntil(cube.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        var standIn = cube.Cube.TrueRoot(s_key);
        cube.Cube.Restart(s_home);
        Assert.True(
            cube.Cube.RunUntil(() => cube.Cube[standIn].Reachability.IsReachable(s_home) && !cube.Cube[s_sender].Reachability.IsReachable(s_home), TimeSpan.FromSeconds(5)),
            "the stand-in root and the sender never disagreed about the home server");

        var sent = cube.EndpointOf(s_sender).SendAsync(s_key, ReliableCube.Payload(15, 0, 100));

        Assert.True(cube.Cube.RunUntil(() => sent.IsCompleted, TimeSpan.FromSeconds(2)), "the send never completed");
        await sent;
        Assert.Single(cube.InboxOf(s_home).Messages);
        Assert.Equal(1, cube.Cube.LiveNodes.Sum(n => cube.InboxOf(n.Self).Messages.Count));
    }

    [Fact]
    public async Task NextMessageToAKeyGoesToTheNewRootWhenTheRootChangedAfterTheFlowsLastMessage()
    {
        // The first message goes to the stand-in root while the home server is down. The home server
        // comes back and every view knows it; the next message, sent on the same (idle, not yet
        // retired) flow, begins after the root changed and must go to the home server.
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 16 });
        cube.Cube.Kill(s_home);
        Assert.True(cube.Cube.RunUntil(cube.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        var standIn = cube.Cube.TrueRoot(s_key);
        var first = cube.EndpointOf(s_sender).SendAsync(s_key, ReliableCube.Payload(16, 0, 100));
        Assert.True(cube.Cube.RunUntil(() => first.IsCompleted, TimeSpan.FromSeconds(1)));
        await first;
        Assert.Single(cube.InboxOf(standIn).Messages);

        cube.Cube.Restart(s_home);
        Assert.True(cube.Cube.RunUntil(cube.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        Assert.Equal(s_home, cube.Cube.TrueRoot(s_key));
        var second = cube.EndpointOf(s_sender).SendAsync(s_key, ReliableCube.Payload(16, 1, 20_000));
        Assert.True(cube.Cube.RunUntil(() => second.IsCompleted, TimeSpan.FromSeconds(1)));

        await second;
        Assert.Equal(ReliableCube.Payload(16, 1, 20_000), Assert.Single(cube.InboxOf(s_home).Messages).Body);
        Assert.Single(cube.InboxOf(standIn).Messages);
    }
}
