using CamCube.Testing;

namespace CamCube.Services.Reliable.Tests;

/// <content>
/// How long a one-packet exchange waits between copies: a bounded doubling while nothing answers, an
/// unbounded one once a busy notice says the handler has the request, from a first timeout that an
/// outlier of a rarely asked peer cannot inflate.
/// </content>
public sealed partial class ExchangeTests
{
    [Fact]
    public void CopiesOfAnUnansweredRequestGoAtMostExchangeBackoffLimitTimesTheFirstTimeoutApart()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 11 });
        var asker = cube.EndpointOf(s_asker);
        LearnFrom(cube, s_neighbour, 10);
        cube.Cube[s_far].GetService<ReliableService>()!.Endpoint.Stop();
        var first = asker.FirstCopyTimeoutOf(s_far);
        Assert.Equal(4, asker.Options.ExchangeBackoffLimit);

        _ = ExchangeOutcome.Ask(asker, s_far, [1]);
        cube.Cube.RunFor(first * 40);

        // Copies after T, 2T, 4T, then every 4T: 11 in 40T. Doubling without a bound sends 5
        // (T, 2T, 4T, 8T, 16T), and a copy every T would send 40.
        Assert.InRange(asker.RetransmittedPackets, 9, 12);
    }

    [Fact]
    public void CopiesToAHandlerThatAnsweredBusyKeepDoublingSoALongHandlerCostsAFewCopies()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 12 });
        var asker = cube.EndpointOf(s_asker);
        LearnFrom(cube, s_neighbour, 10);
        var timeout = asker.FirstCopyTimeoutOf(s_neighbour);

        // The handler runs 200 timeouts; every copy sent meanwhile is answered by a busy notice.
        var inbox = cube.InboxOf(s_neighbour);
        inbox.Deferring = true;
        var outcome = ExchangeOutcome.Ask(asker, s_neighbour, [42]);
        cube.Cube.RunFor(timeout * 200);
        var request = Assert.Single(inbox.Deferred);
        Assert.True(cube.EndpointOf(s_neighbour).Reply(request.Source, request.FlowId, Inbox.ReplyTo(request.Body)));
        Assert.True(cube.Cube.RunUntil(() => outcome.Ended, TimeSpan.FromSeconds(5)));

        // Copies after T, 2T, 4T ... 128T: 8. Bounded as copies with no answer are, every 4T, they would be 50.
        Assert.Null(outcome.Error);
        Assert.InRange(asker.RetransmittedPackets, 6, 10);
        Assert.Equal(asker.RetransmittedPackets, cube.EndpointOf(s_neighbour).DuplicateRequests);
    }

    [Fact]
    public void PeerAskedOnceBySlowHandlerWaitsAtMostFourTimesTheTimeoutOfAllPeersOnceOthersAnsweredFast()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 13 });
        var asker = cube.EndpointOf(s_asker);

        // One sample of the far server: a handler that took 300 ms (a write whose replica was slow).
        var inbox = cube.InboxOf(s_far);
        inbox.Deferring = true;
        var slow = ExchangeOutcome.Ask(asker, s_far, [1]);
        Assert.True(cube.Cube.RunUntil(() => inbox.Deferred.Count == 1, TimeSpan.FromSeconds(1)));
        cube.Cube.RunFor(TimeSpan.FromMilliseconds(300));
        var request = inbox.Deferred[0];
        Assert.True(cube.EndpointOf(s_far).Reply(request.Source, request.FlowId, Inbox.ReplyTo(request.Body)));
        Assert.True(cube.Cube.RunUntil(() => slow.Ended, TimeSpan.FromSeconds(5)));
        Assert.True(asker.FirstCopyTimeoutOf(s_far) >= TimeSpan.FromMilliseconds(300), $"{asker.FirstCopyTimeoutOf(s_far)} after the slow sample");

        // Then many fast exchanges with another peer, none with the far one.
        LearnFrom(cube, s_neighbour, 100);

        var fast = asker.FirstCopyTimeoutOf(s_neighbour);
        Assert.True(asker.FirstCopyTimeoutOf(s_far) <= fast * 4, $"far {asker.FirstCopyTimeoutOf(s_far)}, neighbour {fast}");
        Assert.True(asker.FirstCopyTimeoutOf(s_far) < TimeSpan.FromMilliseconds(10), $"far {asker.FirstCopyTimeoutOf(s_far)}");
    }

    private static void LearnFrom(ReliableCube cube, Coordinate peer, int exchanges)
    {
        var asker = cube.EndpointOf(s_asker);
        for (var i = 0; i < exchanges; i++)
        {
            var fast = ExchangeOutcome.Ask(asker, peer, [(byte)i]);
            Assert.True(cube.Cube.RunUntil(() => fast.Ended, TimeSpan.FromSeconds(1)));
            Assert.Null(fast.Error);
        }
    }
}
