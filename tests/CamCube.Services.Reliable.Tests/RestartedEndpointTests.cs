using CamCube.Testing;

namespace CamCube.Services.Reliable.Tests;

/// <summary>
/// A node restarted with the same seed draws the same random numbers as in its previous life; its
/// endpoint's ids must still be new to the peers that remember that life.
/// </summary>
public sealed class RestartedEndpointTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_asker = new(0, 0, 0);
    private static readonly Coordinate s_responder = new(1, 1, 1);

    [Fact]
    public void RestartedAskersRequestReachesTheHandlerWhenTheResponderKeptTheRepliesOfItsPreviousLife()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 3 });
        var first = ExchangeOutcome.Ask(cube.EndpointOf(s_asker), s_responder, [1, 2]);
        Assert.True(cube.Cube.RunUntil(() => first.Ended, TimeSpan.FromSeconds(1)));

        cube.Cube.Kill(s_asker);
        cube.Cube.RunFor(TimeSpan.FromMilliseconds(10));
        cube.Cube.Restart(s_asker);
        Assert.True(cube.Cube.RunUntil(cube.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        var second = ExchangeOutcome.Ask(cube.EndpointOf(s_asker), s_responder, [3, 4, 5]);
        Assert.True(cube.Cube.RunUntil(() => second.Ended, TimeSpan.FromSeconds(1)));

        // The responder still remembers the first life (its table lasts ReceiveFlowIdleTimeout): an id
        // of that life would have had the first reply again, without the handler.
        Assert.Null(second.Error);
        Assert.Equal(new byte[] { 5, 4, 3 }, second.Reply);
        Assert.Equal(2, cube.EndpointOf(s_responder).HandledRequests);
        Assert.Equal(2, cube.InboxOf(s_responder).Requests.Count);
        Assert.NotEqual(cube.InboxOf(s_responder).Requests[0].FlowId >> 32, cube.InboxOf(s_responder).Requests[1].FlowId >> 32);
    }

    [Fact]
    public void RequestTakenByAResponderThatRestartsBeforeAnsweringFailsAsOutcomeUnknownAndIsNotTakenByItsNextLife()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 4 });
        var warm = ExchangeOutcome.Ask(cube.EndpointOf(s_asker), s_responder, [1]);
        Assert.True(cube.Cube.RunUntil(() => warm.Ended, TimeSpan.FromSeconds(1)));
        cube.InboxOf(s_responder).Deferring = true;
        var taken = ExchangeOutcome.Ask(cube.EndpointOf(s_asker), s_responder, [2, 3]);
        Assert.True(cube.Cube.RunUntil(() => cube.InboxOf(s_responder).Requests.Count == 2, TimeSpan.FromSeconds(1)));

        // The responder dies and comes back at once: its next life has forgotten the request.
        cube.Cube.Kill(s_responder);
        cube.Cube.Restart(s_responder);
        Assert.True(cube.Cube.RunUntil(() => taken.Ended, TimeSpan.FromSeconds(15)));
        cube.Cube.RunFor(TimeSpan.FromSeconds(1));

        Assert.Equal(ReliableFailure.OutcomeUnknown, taken.Error?.Reason);
        Assert.Empty(cube.InboxOf(s_responder).Requests);

        // The asker learned the new life: its next request is taken.
        var next = ExchangeOutcome.Ask(cube.EndpointOf(s_asker), s_responder, [4, 5]);
        Assert.True(cube.Cube.RunUntil(() => next.Ended, TimeSpan.FromSeconds(1)));
        Assert.Null(next.Error);
        Assert.Equal(new byte[] { 5, 4 }, next.Reply);
    }

    [Fact]
    public void LateCopyOfAReplyFromTheRespondersEarlierLifeDoesNotMakeTheNextRequestFailAfterTheAskerSawItRestart()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 5 });
        var asker = cube.EndpointOf(s_asker);
        var first = new ExchangeOutcome();
        Assert.Null(asker.Request(s_responder, [1, 2], ExchangeOutcome.Completion, first, out var firstId));
        Assert.True(cube.Cube.RunUntil(() => first.Ended, TimeSpan.FromSeconds(1)));
        var earlierLife = cube.EndpointOf(s_responder).Life;

        // The asker sees the responder go and come back: it knows no life of it now.
        cube.Cube.Kill(s_responder);
        Assert.True(cube.Cube.RunUntil(() => !cube.Cube[s_asker].Reachability.IsReachable(s_responder), TimeSpan.FromSeconds(5)));
        cube.Cube.Restart(s_responder);
        Assert.True(cube.Cube.RunUntil(cube.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        Assert.NotEqual(earlierLife, cube.EndpointOf(s_responder).Life);

        // A copy of the first reply (duplicated by the network, held back) arrives now.
        CraftedPackets.DeliverReply(cube, s_responder, s_asker, firstId, earlierLife, [2, 1]);

        var next = ExchangeOutcome.Ask(asker, s_responder, [3, 4]);
        Assert.True(cube.Cube.RunUntil(() => next.Ended, TimeSpan.FromSeconds(1)));
        Assert.Null(next.Error);
        Assert.Equal(new byte[] { 4, 3 }, next.Reply);
        Assert.Equal(1, first.Calls);
    }
}
