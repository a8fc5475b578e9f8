using CamCube.Testing;

namespace CamCube.Services.Reliable.Tests;

public sealed class ReliableEndpointTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_sender = new(0, 0, 0);
    private static readonly Coordinate s_far = new(1, 1, 1);

    [Fact]
    public async Task MultiPacketMessageArrivesWholeOnceWhenSentToAServerThreeHopsAway()
    {
        var cube = ReliableCube.InMemory(s_shape);
        var body = ReliableCube.Payload(seed: 1, index: 0, length: 100_000);

        var sent = cube.EndpointOf(s_sender).SendAsync(s_far, body);
        Assert.True(cube.Cube.RunUntil(() => sent.IsCompleted, TimeSpan.FromSeconds(1)));

        await sent;
        var received = Assert.Single(cube.InboxOf(s_far).Messages);
        Assert.Equal(body, received.Body);
        Assert.Equal(s_sender, received.Source);
        Assert.Null(received.Key);
        Assert.Equal(0, cube.EndpointOf(s_sender).QueuedMessageCount);
    }

    [Fact]
    public async Task MessagesOfOneFlowArriveInTheOrderSentWhenSentBackToBack()
    {
        var cube = ReliableCube.InMemory(s_shape);
        var sizes = new[] { 0, 1, 9_000, 20_000, 3, 50_000, 8_964, 8_965 };
        var tasks = sizes.Select((size, i) => cube.EndpointOf(s_sender).SendAsync(s_far, ReliableCube.Payload(2, i, size))).ToArray();

        Assert.True(cube.Cube.RunUntil(() => tasks.All(t => t.IsCompleted), TimeSpan.FromSeconds(1)));

        await Task.WhenAll(tasks);
        var received = cube.InboxOf(s_far).Messages;
        Assert.Equal(sizes.Length, received.Count);
        for (var i = 0; i < sizes.Length; i++)
        {
            Assert.Equal(ReliableCube.Payload(2, i, sizes[i]), received[i].Body);
        }

        Assert.Single(received.Select(m => m.FlowId).Distinct());
    }

    [Fact]
    public async Task MessageToAKeyArrivesAtTheKeysRootWhenSent()
    {
        var cube = ReliableCube.InMemory(s_shape);
        var key = KeyCoordinate.At(new Coordinate(2, 1, 0), 17);
        var body = ReliableCube.Payload(3, 0, 30_000);

        var sent = cube.EndpointOf(s_sender).SendAsync(key, body);
        Assert.True(cube.Cube.RunUntil(() => sent.IsCompleted, TimeSpan.FromSeconds(1)));

        await sent;
        var received = Assert.Single(cube.InboxOf(key.Home).Messages);
        Assert.Equal(key, received.Key);
        Assert.Equal(body, received.Body);
    }

    [Fact]
    public async Task MessageToItselfIsDeliveredInALaterTurnWhenTheDestinationIsThisServer()
    {
        var cube = ReliableCube.InMemory(s_shape);

        var sent = cube.EndpointOf(s_sender).SendAsync(s_sender, new byte[] { 1, 2, 3 });
        Assert.Empty(cube.InboxOf(s_sender).Messages);
        cube.Cube.RunUntilIdle();

        await sent;
        Assert.Equal(new byte[] { 1, 2, 3 }, Assert.Single(cube.InboxOf(s_sender).Messages).Body);
    }

    [Fact]
    public async Task SendFailsWithMessageTooLargeAtOnceWhenOverTheLimit()
    {
        var cube = ReliableCube.InMemory(s_shape, new ReliableOptions { MessageBytesMax = 1_000 });

        var sent = cube.EndpointOf(s_sender).SendAsync(s_far, new byte[1_001]);

        Assert.True(sent.IsFaulted);
        var error = await Assert.ThrowsAsync<ReliableTransferException>(() => sent);
        Assert.Equal(ReliableFailure.MessageTooLarge, error.Reason);
        Assert.Equal("The message is 1001 bytes; the limit is 1000.", error.Message);
    }

    [Fact]
    public async Task DefaultLimitIsSixtyFourMebibytes()
    {
        var cube = ReliableCube.InMemory(s_shape);

        var sent = cube.EndpointOf(s_sender).SendAsync(s_far, new byte[(64 * 1024 * 1024) + 1]);

        Assert.Equal(64 * 1024 * 1024, new ReliableOptions().MessageBytesMax);
        var error = await Assert.ThrowsAsync<ReliableTransferException>(() => sent);
        Assert.Equal(ReliableFailure.MessageTooLarge, error.Reason);
        Assert.Equal("The message is 67108865 bytes; the limit is 67108864.", error.Message);
    }

    [Fact]
    public async Task SendFailsWithPeerUnreachableAtOnceWhenTheServerIsDead()
    {
        var cube = ReliableCube.InMemory(s_shape);
        cube.Cube.Kill(s_far);
        Assert.True(cube.Cube.RunUntil(cube.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));

        var sent = cube.EndpointOf(s_sender).SendAsync(s_far, new byte[10]);

        var error = await Assert.ThrowsAsync<ReliableTransferException>(() => sent);
        Assert.Equal(ReliableFailure.PeerUnreachable, error.Reason);
        Assert.Equal("Server (1,1,1) is unreachable.", error.Message);
    }

    [Fact]
    public async Task SendFailsWithPeerUnreachableWhenThePeerDiesMidway()
    {
        // The simulator's 1 Gbps links take 40 ms for 5 MB, so the kill lands midway.
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 5 });
        var sent = cube.EndpointOf(s_sender).SendAsync(s_far, new byte[5_000_000]);
        cube.Cube.RunFor(TimeSpan.FromMilliseconds(2));
        Assert.False(sent.IsCompleted);

        cube.Cube.Kill(s_far);
        Assert.True(cube.Cube.RunUntil(() => sent.IsCompleted, TimeSpan.FromSeconds(2)));

        var error = await Assert.ThrowsAsync<ReliableTransferException>(() => sent);
        Assert.Equal(ReliableFailure.PeerUnreachable, error.Reason);
        Assert.Empty(cube.InboxOf(s_far).Messages);
        Assert.Equal(0, cube.EndpointOf(s_sender).QueuedMessageCount);
    }

    [Fact]
    public async Task PendingSendsFailWithStoppedWhenTheServiceLeavesItsNode()
    {
        var cube = ReliableCube.InMemory(s_shape);
        var endpoint = cube.EndpointOf(s_sender);
        var sent = endpoint.SendAsync(s_far, new byte[5_000_000]);

        endpoint.Stop();

        var error = await Assert.ThrowsAsync<ReliableTransferException>(() => sent);
        Assert.Equal(ReliableFailure.Stopped, error.Reason);
    }

    [Fact]
    public void CompletionRunsOnceInALaterTurnWhenTheMessageIsAcknowledged()
    {
        var cube = ReliableCube.InMemory(s_shape);
        var outcomes = new List<(object? State, ReliableTransferException? Error)>();

        var refused = cube.EndpointOf(s_sender).Send(s_far, new byte[20_000], owner: null, (state, error) => outcomes.Add((state, error)), "first");

        Assert.Null(refused);
        Assert.Empty(outcomes);
        Assert.True(cube.Cube.RunUntil(() => outcomes.Count == 1, TimeSpan.FromSeconds(1)));
        cube.Cube.RunFor(TimeSpan.FromMilliseconds(10));
        Assert.Equal([("first", (ReliableTransferException?)null)], outcomes);
    }

    [Fact]
    public void SendReturnsTheReasonAndNeverCallsTheCompletionWhenRefusedAtOnce()
    {
        var cube = ReliableCube.InMemory(s_shape, new ReliableOptions { MessageBytesMax = 10 });
        var called = 0;

        var refused = cube.EndpointOf(s_sender).Send(KeyCoordinate.At(s_far, 1), new byte[11], owner: null, (_, _) => called++, null);
        cube.Cube.RunFor(TimeSpan.FromMilliseconds(10));

        Assert.Equal(ReliableFailure.MessageTooLarge, refused?.Reason);
        Assert.Equal(0, called);
    }
}
