using CamCube.Testing;

namespace CamCube.Services.Reliable.Tests;

/// <summary>
/// An endpoint's ids are a 32-bit high half and a 32-bit counter: after 2^32 - 1 ids (about 40 hours
/// at 30,000 a second) the counter wraps. The ids after the wrap must still be new to the peers.
/// </summary>
public sealed class IdCounterWrapTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_asker = new(0, 0, 0);
    private static readonly Coordinate s_far = new(1, 1, 1);

    [Fact]
    public void ExchangesAfterTheCounterWrapsAreEachHandledOnceWhileAnExchangeFromBeforeTheWrapStillRuns()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 11 });
        var asker = cube.EndpointOf(s_asker);
        var inbox = cube.InboxOf(s_far);
        asker.SkipIdsUpTo(uint.MaxValue - 2);

        // The last id before the wrap stays open at the responder while later ones come and go.
        inbox.Deferring = true;
        var held = ExchangeOutcome.Ask(asker, s_far, [0]);
        Assert.True(cube.Cube.RunUntil(() => inbox.Deferred.Count == 1, TimeSpan.FromSeconds(1)));
        inbox.Deferring = false;

        for (byte i = 1; i <= 8; i++)
        {
            var answered = ExchangeOutcome.Ask(asker, s_far, [i]);
            Assert.True(cube.Cube.RunUntil(() => answered.Ended, asker.Options.ProgressTimeout * 2), $"exchange {i} never ended");
            Assert.Null(answered.Error);
            Assert.Equal(new[] { i }, answered.Reply);
        }

        var request = Assert.Single(inbox.Deferred);
        Assert.True(cube.EndpointOf(s_far).Reply(request.Source, request.FlowId, Inbox.ReplyTo(request.Body)), "the exchange from before the wrap was forgotten");
        Assert.True(cube.Cube.RunUntil(() => held.Ended, TimeSpan.FromSeconds(1)));
        Assert.Null(held.Error);
        Assert.Equal(new byte[] { 0 }, held.Reply);

        Assert.Equal(9, cube.EndpointOf(s_far).HandledRequests);
        Assert.Equal(9, inbox.Requests.Select(r => r.FlowId).Distinct().Count());
        Assert.Equal(9, inbox.Requests.Select(r => r.Body[0]).Distinct().Count());
        Assert.DoesNotContain(inbox.Requests, r => r.FlowId == 0);
    }

    [Fact]
    public async Task MessagesOnFlowsOpenedAcrossTheCounterWrapAreEachDeliveredOnce()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 12 });
        var sender = cube.EndpointOf(s_asker);
        sender.SkipIdsUpTo(uint.MaxValue - 2);
        var receivers = new[] { new Coordinate(1, 0, 0), new Coordinate(0, 1, 0), new Coordinate(0, 0, 1), new Coordinate(2, 2, 2), s_far };

        // Each receiver is a new flow, so a new id: the third and later are past the wrap.
        for (var i = 0; i < receivers.Length; i++)
        {
            var sent = sender.SendAsync(receivers[i], ReliableCube.Payload(seed: 12, index: i, 20_000));
            Assert.True(cube.Cube.RunUntil(() => sent.IsCompleted, TimeSpan.FromSeconds(2)));
            await sent;
        }

        var flowIds = new HashSet<ulong>();
        for (var i = 0; i < receivers.Length; i++)
        {
            var message = Assert.Single(cube.InboxOf(receivers[i]).Messages);
            Assert.Equal(ReliableCube.Payload(seed: 12, index: i, 20_000), message.Body);
            Assert.True(flowIds.Add(message.FlowId), $"flow id {message.FlowId:X16} used twice");
        }
    }
}
