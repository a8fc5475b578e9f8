using CamCube.Testing;
using CamCube.Transport.Faults;

namespace CamCube.Services.Reliable.Tests;

public sealed partial class ExchangeTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_asker = new(0, 0, 0);
    private static readonly Coordinate s_neighbour = new(1, 0, 0);
    private static readonly Coordinate s_far = new(1, 1, 1);

    [Fact]
    public void RequestAndReplyAreTwoPacketsWhenNothingIsLost()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 1 });
        var before = cube.PacketsDelivered();

        var outcome = ExchangeOutcome.Ask(cube.EndpointOf(s_asker), s_neighbour, [1, 2, 3]);
        Assert.True(cube.Cube.RunUntil(() => outcome.Ended, TimeSpan.FromSeconds(1)));
        cube.Cube.RunFor(TimeSpan.FromSeconds(1));

        Assert.Null(outcome.Error);
        Assert.Equal(new byte[] { 3, 2, 1 }, outcome.Reply);
        Assert.Equal(s_neighbour, outcome.Source);
        Assert.Equal(2, cube.PacketsDelivered() - before);
        Assert.Equal(0, cube.EndpointOf(s_asker).RetransmittedPackets);
        Assert.Equal(0, cube.EndpointOf(s_asker).OpenExchangeCount);
    }

    [Fact]
    public void DuplicateRequestGetsTheKeptReplyWithoutTheHandlerWhenTheRequestIsSentAgainBeforeTheReplyArrives()
    {
        // A retransmission timeout far below the round trip: the request goes out again and again before its reply is back.
        var options = new ReliableOptions { InitialRetransmissionTimeout = TimeSpan.FromMicroseconds(5), MinimumRetransmissionTimeout = TimeSpan.FromMicroseconds(5) };
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 2 }, options);

        var outcome = ExchangeOutcome.Ask(cube.EndpointOf(s_asker), s_far, [7, 8]);
        Assert.True(cube.Cube.RunUntil(() => outcome.Ended, TimeSpan.FromSeconds(1)));
        cube.Cube.RunFor(TimeSpan.FromSeconds(1));

        var responder = cube.EndpointOf(s_far);
        Assert.Null(outcome.Error);
        Assert.Equal(new byte[] { 8, 7 }, outcome.Reply);
        Assert.Equal(1, outcome.Calls);
        Assert.Single(cube.InboxOf(s_far).Requests);
        Assert.Equal(1, responder.HandledRequests);
        Assert.True(responder.DuplicateRequests >= 1, $"{responder.DuplicateRequests} duplicates");
        Assert.Equal(cube.EndpointOf(s_asker).RetransmittedPackets, responder.DuplicateRequests);
    }

    [Fact]
    public void DuplicateOfARequestStillBeingHandledGetsABusyNoticeAndKeepsTheExchangeAliveWhenTheHandlerTakesLongerThanTheProgressTimeout()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 3 });
        var inbox = cube.InboxOf(s_far);
        inbox.Deferring = true;

        var outcome = ExchangeOutcome.Ask(cube.EndpointOf(s_asker), s_far, [1, 2, 3, 4]);
        cube.Cube.RunFor(cube.EndpointOf(s_asker).Options.ProgressTimeout * 2);
        Assert.False(outcome.Ended);
        Assert.Single(inbox.Requests);

        var request = Assert.Single(inbox.Deferred);
        Assert.True(cube.EndpointOf(s_far).Reply(request.Source, request.FlowId, Inbox.ReplyTo(request.Body)));
        Assert.True(cube.Cube.RunUntil(() => outcome.Ended, TimeSpan.FromSeconds(3)));

        Assert.Null(outcome.Error);
        Assert.Equal(new byte[] { 4, 3, 2, 1 }, outcome.Reply);
        Assert.Single(inbox.Requests);
        Assert.False(cube.EndpointOf(s_far).Reply(request.Source, request.FlowId, [9]));
    }

    [Fact]
    public void ExchangeStillRunningAtTheResponderIsNotForgottenWhenTheRequestersLaterExchangesFillItsTable()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 9 }, new ReliableOptions { AnsweredExchangesPerPeerMax = 4 });
        var asker = cube.EndpointOf(s_asker);
        var inbox = cube.InboxOf(s_far);
        inbox.Deferring = true;
        var held = ExchangeOutcome.Ask(asker, s_far, [1]);
        Assert.True(cube.Cube.RunUntil(() => inbox.Deferred.Count == 1, TimeSpan.FromSeconds(1)));
        inbox.Deferring = false;

        // Three more fill the responder's table of this requester; each is answered at once.
        for (byte i = 2; i <= 4; i++)
        {
            var answered = ExchangeOutcome.Ask(asker, s_far, [i]);
            Assert.True(cube.Cube.RunUntil(() => answered.Ended, TimeSpan.FromSeconds(1)));
            Assert.Equal(new[] { i }, answered.Reply);
        }

        // A fifth waits (answered busy) rather than push the running exchange out of the table.
        var waiting = ExchangeOutcome.Ask(asker, s_far, [5]);
        cube.Cube.RunFor(TimeSpan.FromSeconds(1));
        Assert.False(waiting.Ended);

        var request = Assert.Single(inbox.Deferred);
        Assert.True(cube.EndpointOf(s_far).Reply(request.Source, request.FlowId, Inbox.ReplyTo(request.Body)), "the running exchange was forgotten");
        Assert.True(cube.Cube.RunUntil(() => held.Ended && waiting.Ended, asker.Options.ProgressTimeout));
        Assert.Null(held.Error);
        Assert.Equal(new byte[] { 1 }, held.Reply);
        Assert.Null(waiting.Error);
        Assert.Equal(new byte[] { 5 }, waiting.Reply);
        Assert.Equal(5, cube.EndpointOf(s_far).HandledRequests);
    }

    [Fact]
    public void ExchangesWhoseHandlerRunsLongerThanTheTimeoutLearnedFromFastOnesAreSentAgainOnlyUntilRepliesNamingTheCopyTheHandlerTookTeachTheTimeout()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 7 });
        var asker = cube.EndpointOf(s_asker);
        var inbox = cube.InboxOf(s_far);

        // Answered at once: the timeout learned is a few round trips of the wire.
        for (var i = 0; i < 10; i++)
        {
            var fast = ExchangeOutcome.Ask(asker, s_far, [(byte)i]);
            Assert.True(cube.Cube.RunUntil(() => fast.Ended, TimeSpan.FromSeconds(1)));
        }

        Assert.Equal(0, asker.RetransmittedPackets);

        // Then each handler takes 20 ms (a write waiting for its replicas' commits), far above that timeout.
        inbox.Deferring = true;
        const int slowExchanges = 20;
        for (var i = 0; i < slowExchanges; i++)
        {
            var slow = ExchangeOutcome.Ask(asker, s_far, [(byte)i, 1]);
            Assert.True(cube.Cube.RunUntil(() => inbox.Deferred.Count == 1, TimeSpan.FromSeconds(1)));
            cube.Cube.RunFor(TimeSpan.FromMilliseconds(20));
            var request = inbox.Deferred[0];
            inbox.Deferred.Clear();
            Assert.True(cube.EndpointOf(s_far).Reply(request.Source, request.FlowId, Inbox.ReplyTo(request.Body)));
            Assert.True(cube.Cube.RunUntil(() => slow.Ended, TimeSpan.FromSeconds(1)));
            Assert.Null(slow.Error);
        }

        // The first slow exchanges are sent again (each answered by a busy notice); their replies name
        // the first copy, the one the handler took, so their round trips count the handler's time and
        // raise the timeout, and the later ones are not sent again.
        Assert.True(asker.RetransmittedPackets < slowExchanges / 2, $"{asker.RetransmittedPackets} requests sent again for {slowExchanges} slow exchanges");
        Assert.Equal(asker.RetransmittedPackets, cube.EndpointOf(s_far).DuplicateRequests);
        Assert.Equal(10 + slowExchanges, cube.EndpointOf(s_far).HandledRequests);
    }

    [Fact]
    public void ReplyToTheSecondCopyWhenTheFirstWasLostGivesARoundTripSampleFromTheSecondCopyAndLeavesTheTimeoutAsLearned()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 8, Faults = new FaultOptions { Delay = TimeSpan.FromMicroseconds(1) } });
        var asker = cube.EndpointOf(s_asker);
        for (var i = 0; i < 10; i++)
        {
            var fast = ExchangeOutcome.Ask(asker, s_neighbour, [(byte)i]);
            Assert.True(cube.Cube.RunUntil(() => fast.Ended, TimeSpan.FromSeconds(1)));
        }

        var learned = asker.FirstCopyTimeoutOf(s_neighbour);
        Assert.Equal(10, asker.RoundTripSamples);

        // The neighbour receives nothing while the first copy crosses the link.
        var faults = ((SimulatedCube)cube.Cube).FaultsAt(s_neighbour)!;
        var passing = faults.Faults;
        var droppedBefore = faults.FramesDropped;
        faults.Faults = new FaultOptions { DropProbability = 1 };
        var outcome = ExchangeOutcome.Ask(asker, s_neighbour, [42]);
        Assert.True(cube.Cube.RunUntil(() => faults.FramesDropped > droppedBefore, TimeSpan.FromSeconds(1)));
        faults.Faults = passing;
        Assert.True(cube.Cube.RunUntil(() => outcome.Ended, TimeSpan.FromSeconds(1)));

        // The second copy was the one taken and answered: its round trip is a sample. Timed from the
        // lost first copy, the sample would be longer by a whole timeout and would raise the next one.
        Assert.Null(outcome.Error);
        Assert.Equal(1, asker.RetransmittedPackets);
        Assert.Equal(0, cube.EndpointOf(s_neighbour).DuplicateRequests);
        Assert.Equal(11, asker.RoundTripSamples);
        Assert.True(asker.FirstCopyTimeoutOf(s_neighbour) <= learned, $"timeout {asker.FirstCopyTimeoutOf(s_neighbour)} after the sample, {learned} before");
    }

    [Fact]
    public void RequestIsRefusedWithPeerUnreachableAtOnceWhenTheServerIsDead()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 4 });
        cube.Cube.Kill(s_far);
        cube.Cube.RunUntil(() => !cube.Cube[s_asker].Reachability.IsReachable(s_far), TimeSpan.FromSeconds(5));

        var error = cube.EndpointOf(s_asker).Request(s_far, [1], ExchangeOutcome.Completion, new ExchangeOutcome(), out var id);

        Assert.Equal(ReliableFailure.PeerUnreachable, error?.Reason);
        Assert.Equal(0UL, id);
        Assert.Equal(0, cube.EndpointOf(s_asker).OpenExchangeCount);
    }

    [Fact]
    public void ExchangeFailsWithPeerUnreachableWellBeforeItsTimeoutWhenThePeerDiesWhileHandlingIt()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 5 });
        cube.InboxOf(s_far).Deferring = true;
        var outcome = ExchangeOutcome.Ask(cube.EndpointOf(s_asker), s_far, [1]);
        cube.Cube.RunUntil(() => cube.InboxOf(s_far).Requests.Count == 1, TimeSpan.FromSeconds(1));
        var killedAt = cube.Cube.Elapsed;

        cube.Cube.Kill(s_far);
        Assert.True(cube.Cube.RunUntil(() => outcome.Ended, TimeSpan.FromSeconds(10)));

        Assert.Equal(ReliableFailure.PeerUnreachable, outcome.Error?.Reason);
        Assert.True(cube.Cube.Elapsed - killedAt < cube.EndpointOf(s_asker).Options.ProgressTimeout / 2, $"failed after {cube.Cube.Elapsed - killedAt}");
        Assert.Equal(0, cube.EndpointOf(s_asker).OpenExchangeCount);
    }

    [Fact]
    public void ExchangeFailsWithTimedOutAfterTheProgressTimeoutWhenNothingAnswers()
    {
        var options = new ReliableOptions { ProgressTimeout = TimeSpan.FromSeconds(3) };
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 6 }, options);
        cube.Cube[s_far].GetService<ReliableService>()!.Endpoint.Stop();

        var outcome = ExchangeOutcome.Ask(cube.EndpointOf(s_asker), s_far, [1]);
        Assert.True(cube.Cube.RunUntil(() => outcome.Ended, TimeSpan.FromSeconds(5)));

        Assert.Equal(ReliableFailure.TimedOut, outcome.Error?.Reason);
        Assert.Equal("No reply from (1,1,1) for 3 s.", outcome.Error?.Message);
        Assert.True(cube.EndpointOf(s_asker).RetransmittedPackets >= 2);
    }

    [Fact]
    public void FirstRequestToANewPeerIsSentAgainWithinTheTimeoutLearnedFromOtherPeersWhenItIsNotAnswered()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 8 });
        var asker = cube.EndpointOf(s_asker);
        var learned = ExchangeOutcome.Ask(asker, s_neighbour, [1]);
        Assert.True(cube.Cube.RunUntil(() => learned.Ended, TimeSpan.FromSeconds(1)));
        cube.Cube[s_far].GetService<ReliableService>()!.Endpoint.Stop();

        // The neighbour's round trip is microseconds in the simulated cube: a request to a peer
        // never asked is sent again long before the 200 ms a peer without any sample would wait.
        _ = ExchangeOutcome.Ask(asker, s_far, [2]);
        cube.Cube.RunFor(TimeSpan.FromMilliseconds(20));

        Assert.True(asker.RetransmittedPackets >= 1, $"{asker.RetransmittedPackets} retransmitted");
    }

    [Fact]
    public void PeerFirstAskedBeforeAnySampleIsSentAgainWithinTheTimeoutLearnedSinceFromOtherPeers()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 10 });
        var asker = cube.EndpointOf(s_asker);
        cube.Cube[s_far].GetService<ReliableService>()!.Endpoint.Stop();

        // Asked first while the endpoint has no sample at all (as a node just started does), and
        // never answered: the peer still has no sample of its own.
        var unanswered = new ExchangeOutcome();
        Assert.Null(asker.Request(s_far, [1], ExchangeOutcome.Completion, unanswered, out var id));
        cube.Cube.RunFor(TimeSpan.FromMilliseconds(1));
        asker.Cancel(id);
        var learned = ExchangeOutcome.Ask(asker, s_neighbour, [2]);
        Assert.True(cube.Cube.RunUntil(() => learned.Ended, TimeSpan.FromSeconds(1)));
        var before = asker.RetransmittedPackets;

        _ = ExchangeOutcome.Ask(asker, s_far, [3]);
        cube.Cube.RunFor(TimeSpan.FromMilliseconds(20));

        Assert.True(asker.RetransmittedPackets > before, $"{asker.RetransmittedPackets - before} retransmitted within 20 ms");
    }

    [Fact]
    public void FirstRequestOfAnEndpointWithoutAnySampleWaitsTheInitialTimeoutBeforeItIsSentAgain()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 9 });
        var asker = cube.EndpointOf(s_asker);
        cube.Cube[s_far].GetService<ReliableService>()!.Endpoint.Stop();

        _ = ExchangeOutcome.Ask(asker, s_far, [2]);
        cube.Cube.RunFor(asker.Options.InitialRetransmissionTimeout - TimeSpan.FromMilliseconds(1));
        Assert.Equal(0, asker.RetransmittedPackets);
        cube.Cube.RunFor(TimeSpan.FromMilliseconds(2));
        Assert.Equal(1, asker.RetransmittedPackets);
    }

    [Fact]
    public void RequestToAKeyIsAnsweredByTheKeysRootWhenSent()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 7 });
        var key = KeyCoordinate.At(new Coordinate(2, 1, 2), 77);
        var outcome = new ExchangeOutcome();

        Assert.Null(cube.EndpointOf(s_asker).Request(key, [5, 6], ExchangeOutcome.Completion, outcome, out _));
        Assert.True(cube.Cube.RunUntil(() => outcome.Ended, TimeSpan.FromSeconds(1)));

        Assert.Equal(new Coordinate(2, 1, 2), outcome.Source);
        Assert.Equal(new byte[] { 6, 5 }, outcome.Reply);
        Assert.Equal(key, Assert.Single(cube.InboxOf(new Coordinate(2, 1, 2)).Requests).Key);
    }

    [Fact]
    public void RequestLargerThanOnePacketIsRefusedWithMessageTooLargeWhenAsked()
    {
        var cube = ReliableCube.InMemory(s_shape);
        var endpoint = cube.EndpointOf(s_asker);

        var error = endpoint.Request(s_far, new byte[endpoint.ExchangeRequestBytesMax + 1], ExchangeOutcome.Completion, null, out _);

        Assert.Equal(ReliableFailure.MessageTooLarge, error?.Reason);
        Assert.Throws<ArgumentOutOfRangeException>(() => endpoint.Reply(s_far, 1, new byte[endpoint.ExchangeReplyBytesMax + 1]));
    }

    [Fact]
    public void CancelledExchangeNeverCompletesWhenItsReplyComesLater()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 8 });
        var outcome = new ExchangeOutcome();
        Assert.Null(cube.EndpointOf(s_asker).Request(s_far, [1], ExchangeOutcome.Completion, outcome, out var id));

        Assert.True(cube.EndpointOf(s_asker).Cancel(id));
        cube.Cube.RunFor(TimeSpan.FromSeconds(1));

        Assert.False(outcome.Ended);
        Assert.Single(cube.InboxOf(s_far).Requests);
        Assert.False(cube.EndpointOf(s_asker).Cancel(id));
    }

    [Fact]
    public void ResponderForgetsAnsweredRequestsBelowTheRequestersOldestOpenExchangeWhenItAsksAgain()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 9 });
        for (var i = 0; i < 10; i++)
        {
            var outcome = ExchangeOutcome.Ask(cube.EndpointOf(s_asker), s_neighbour, [(byte)i]);
            Assert.True(cube.Cube.RunUntil(() => outcome.Ended, TimeSpan.FromSeconds(1)));
        }

        // Each request names the oldest exchange still open (itself): the responder keeps only the last one.
        Assert.Equal(1, cube.EndpointOf(s_neighbour).RememberedExchangeCount);
    }
}
