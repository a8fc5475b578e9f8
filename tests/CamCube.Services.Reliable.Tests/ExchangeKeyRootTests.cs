using CamCube.Testing;

namespace CamCube.Services.Reliable.Tests;

/// <summary>Exchanges with the root of a key while the root changes: the handler of one root, and only one, takes each request.</summary>
public sealed class ExchangeKeyRootTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_asker = new(0, 0, 0);
    private static readonly Coordinate s_home = new(1, 1, 1);
    private static readonly KeyCoordinate s_key = KeyCoordinate.At(s_home, 5);

    [Fact]
    public void ExchangeStaysWithTheRootThatTookItWhenTheHomeServerReturnsWhileItsHandlerRuns()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 21 });
        cube.Cube.Kill(s_home);
        Assert.True(cube.Cube.RunUntil(cube.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        var firstRoot = cube.Cube.TrueRoot(s_key);
        var inbox = cube.InboxOf(firstRoot);
        inbox.Deferring = true;
        var outcome = AskKey(cube, [1, 2, 3]);
        Assert.True(cube.Cube.RunUntil(() => inbox.Requests.Count == 1, TimeSpan.FromSeconds(1)));

        // The home server returns and takes the key over while the first root's handler still runs;
        // the asker sends the request again (its timeout passes several times) before the reply.
        cube.Cube.Restart(s_home);
        Assert.True(cube.Cube.RunUntil(() => cube.Cube.ViewsConverged() && cube.Cube.TrueRoot(s_key) == s_home, TimeSpan.FromSeconds(5)));
        cube.Cube.RunFor(TimeSpan.FromSeconds(1));
        Assert.False(outcome.Ended);
        Assert.True(cube.EndpointOf(s_asker).RetransmittedPackets > 0);

        var request = Assert.Single(inbox.Deferred);
        Assert.True(cube.EndpointOf(firstRoot).Reply(request.Source, request.FlowId, Inbox.ReplyTo(request.Body)));
        Assert.True(cube.Cube.RunUntil(() => outcome.Ended, TimeSpan.FromSeconds(3)));
        cube.Cube.RunFor(TimeSpan.FromSeconds(1));

        Assert.Null(outcome.Error);
        Assert.Equal(1, outcome.Calls);
        Assert.Equal(firstRoot, outcome.Source);
        Assert.Equal(new byte[] { 3, 2, 1 }, outcome.Reply);
        Assert.Empty(cube.InboxOf(s_home).Requests);
        Assert.Single(inbox.Requests);
    }

    [Fact]
    public void ExchangeMovesToTheRootTheServerItWentToNamesWhenThatServerNoLongerIsTheRoot()
    {
        var (cube, oldRoot) = StartWithTheHomeBackUnknownToTheAsker();

        var outcome = AskKey(cube, [4, 5]);
        Assert.True(cube.Cube.RunUntil(() => outcome.Ended, TimeSpan.FromSeconds(3)));
        cube.Cube.RunFor(TimeSpan.FromSeconds(1));

        Assert.Null(outcome.Error);
        Assert.Equal(s_home, outcome.Source);
        Assert.Equal(new byte[] { 5, 4 }, outcome.Reply);
        Assert.Single(cube.InboxOf(s_home).Requests);
        Assert.Empty(cube.InboxOf(oldRoot).Requests);
        Assert.Equal(1, cube.EndpointOf(oldRoot).RefusedRequests);
        Assert.Equal(1, cube.EndpointOf(s_asker).MovedExchanges);
    }

    [Fact]
    public void CancelByTheIdTheCallerGotStopsAnExchangeThatMovedToAnotherRoot()
    {
        var (cube, _) = StartWithTheHomeBackUnknownToTheAsker();
        cube.InboxOf(s_home).Deferring = true;
        var asker = cube.EndpointOf(s_asker);
        var outcome = new ExchangeOutcome();
        Assert.Null(asker.Request(s_key, [7], ExchangeOutcome.Completion, outcome, out var id));
        Assert.True(cube.Cube.RunUntil(() => cube.InboxOf(s_home).Requests.Count == 1, TimeSpan.FromSeconds(3)));
        Assert.Equal(1, asker.MovedExchanges);

        Assert.True(asker.Cancel(id));
        Assert.False(asker.Cancel(id));
        cube.Cube.RunFor(TimeSpan.FromSeconds(15));

        Assert.False(outcome.Ended);
        Assert.Equal(0, asker.OpenExchangeCount);
    }

    [Fact]
    public void ExchangeFailsWithOutcomeUnknownAndReachesNoOtherRootWhenItsRootDiesWhileHandlingIt()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 23 });
        cube.InboxOf(s_home).Deferring = true;
        var outcome = AskKey(cube, [6]);
        Assert.True(cube.Cube.RunUntil(() => cube.InboxOf(s_home).Requests.Count == 1, TimeSpan.FromSeconds(1)));

        cube.Cube.Kill(s_home);
        Assert.True(cube.Cube.RunUntil(() => outcome.Ended, TimeSpan.FromSeconds(10)));
        cube.Cube.RunFor(TimeSpan.FromSeconds(1));

        Assert.Equal(ReliableFailure.OutcomeUnknown, outcome.Error?.Reason);
        Assert.Equal(0, cube.Cube.LiveNodes.Sum(n => cube.InboxOf(n.Self).Requests.Count));
    }

    /// <summary>
    /// A cube whose key's home server is back: its neighbour, the key's root while it was down, knows
    /// already; the asker, three hops away, not yet, so its request goes to the old root, which refuses it.
    /// </summary>
    private static (ReliableCube Cube, Coordinate OldRoot) StartWithTheHomeBackUnknownToTheAsker()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 22 });
        cube.Cube.Kill(s_home);
        Assert.True(cube.Cube.RunUntil(cube.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        var oldRoot = cube.Cube.TrueRoot(s_key);
        cube.Cube.Restart(s_home);
        Assert.True(cube.Cube.RunUntil(() => RootSeenBy(cube, oldRoot) == s_home && RootSeenBy(cube, s_asker) == oldRoot, TimeSpan.FromSeconds(5)));
        return (cube, oldRoot);
    }

    private static Coordinate RootSeenBy(ReliableCube cube, Coordinate server)
    {
        var node = cube.Cube[server];
        return node.KeySpace.TryGetRoot(s_key, node.Reachability, out var root) ? root : server;
    }

    private static ExchangeOutcome AskKey(ReliableCube cube, byte[] request)
    {
        var outcome = new ExchangeOutcome();
        Assert.Null(cube.EndpointOf(s_asker).Request(s_key, request, ExchangeOutcome.Completion, outcome, out _));
        return outcome;
    }
}
