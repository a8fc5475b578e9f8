using CamCube.Testing;

namespace CamCube.Services.Reliable.Tests;

/// <summary>A flow that sat idle is measured for progress from its next message, not from its last acknowledgement, and does not outlive its server's going away.</summary>
public sealed class ReliableIdleFlowTests
{
    private static readonly TorusShape s_shape = new(5, 1, 1);
    private static readonly Coordinate s_sender = new(0, 0, 0);
    private static readonly Coordinate s_receiver = new(2, 0, 0);

    [Fact]
    public async Task MessageOnAFlowIdleLongerThanTheProgressTimeoutIsDeliveredWhenItsFirstPacketsAreLost()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 3, Faults = new Transport.Faults.FaultOptions { Delay = TimeSpan.FromMicroseconds(1) } });
        var endpoint = cube.EndpointOf(s_sender);
        var first = endpoint.SendAsync(s_receiver, ReliableCube.Payload(seed: 3, index: 0, 20_000));
        Assert.True(cube.Cube.RunUntil(() => first.IsCompleted, TimeSpan.FromSeconds(1)));
        await first;

        // Idle for longer than the progress timeout, not long enough for the flow to be retired.
        var options = new ReliableOptions();
        cube.Cube.RunFor(options.ProgressTimeout + TimeSpan.FromSeconds(2));

        // The next message's first packets are lost, so its retransmission timer fires before any acknowledgement.
        var faults = ((SimulatedCube)cube.Cube).FaultsAt(s_receiver)!;
        faults.Faults = new Transport.Faults.FaultOptions { DropProbability = 1 };
        var second = endpoint.SendAsync(s_receiver, ReliableCube.Payload(seed: 3, index: 1, 20_000));
        cube.Cube.RunFor(TimeSpan.FromMilliseconds(1));
        faults.Faults = new Transport.Faults.FaultOptions { Delay = TimeSpan.FromMicroseconds(1) };

        Assert.True(cube.Cube.RunUntil(() => second.IsCompleted, options.ProgressTimeout / 2));
        await second;
        Assert.Equal(2, cube.InboxOf(s_receiver).Messages.Count);
        Assert.True(endpoint.RetransmittedPackets > 0, "no packet was sent again: the loss came too late");
    }

    [Fact]
    public async Task MessageToAServerThatRestartedWhileTheFlowWasIdleIsDeliveredWhenTheSenderSawItGoAndComeBack()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 4 });
        var endpoint = cube.EndpointOf(s_sender);
        var first = endpoint.SendAsync(s_receiver, ReliableCube.Payload(seed: 4, index: 0, 100));
        Assert.True(cube.Cube.RunUntil(() => first.IsCompleted, TimeSpan.FromSeconds(1)));
        await first;

        // The receiver restarts, forgetting the flow; the sender sees it go and come back.
        cube.Cube.Kill(s_receiver);
        Assert.True(cube.Cube.RunUntil(() => !cube.Cube[s_sender].Reachability.IsReachable(s_receiver), TimeSpan.FromSeconds(5)));
        cube.Cube.Restart(s_receiver);
        Assert.True(cube.Cube.RunUntil(cube.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));

        var second = endpoint.SendAsync(s_receiver, ReliableCube.Payload(seed: 4, index: 1, 100));
        Assert.True(cube.Cube.RunUntil(() => second.IsCompleted, TimeSpan.FromSeconds(1)));

        await second;
        Assert.Equal(ReliableCube.Payload(seed: 4, index: 1, 100), Assert.Single(cube.InboxOf(s_receiver).Messages).Body);
    }

    [Fact]
    public async Task MessageToAKeyWhoseRootRestartedWhileTheFlowWasIdleIsDeliveredWhenTheSenderSawItGoAndComeBack()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 5 });
        var endpoint = cube.EndpointOf(s_sender);
        var key = KeyCoordinate.At(s_receiver, 3);
        var first = endpoint.SendAsync(key, ReliableCube.Payload(seed: 5, index: 0, 100));
        Assert.True(cube.Cube.RunUntil(() => first.IsCompleted, TimeSpan.FromSeconds(1)));
        await first;

        cube.Cube.Kill(s_receiver);
        Assert.True(cube.Cube.RunUntil(() => !cube.Cube[s_sender].Reachability.IsReachable(s_receiver), TimeSpan.FromSeconds(5)));
        cube.Cube.Restart(s_receiver);
        Assert.True(cube.Cube.RunUntil(cube.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));

        var second = endpoint.SendAsync(key, ReliableCube.Payload(seed: 5, index: 1, 100));
        Assert.True(cube.Cube.RunUntil(() => second.IsCompleted, TimeSpan.FromSeconds(1)));

        await second;
        Assert.Equal(ReliableCube.Payload(seed: 5, index: 1, 100), Assert.Single(cube.InboxOf(s_receiver).Messages).Body);
    }
}
