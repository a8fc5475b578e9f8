using CamCube.Services.Reliable;
using CamCube.Testing;
using CamCube.Transport.Faults;

namespace CamCube.Messaging.Tests;

public sealed class ReliableExchangeTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_asker = new(0, 0, 0);
    private static readonly Coordinate s_neighbour = new(1, 0, 0);
    private static readonly Coordinate s_far = new(1, 1, 1);

    [Fact]
    public async Task OnePacketRequestAndItsReplyAreTwoPacketsWhenTheServiceIsReliableAndNothingIsLost()
    {
        var cube = SimulatedCube.Start(s_shape, n => n.Register(new ReliableEchoService()), new SimulatedCubeOptions { Seed = 31 });
        var asker = cube[s_asker].GetService<ReliableEchoService>()!;
        var before = PacketsDelivered(cube);

        var reply = asker.EchoServerAsync(s_neighbour, new Blob { Id = 5, Data = new byte[100] }, TimeSpan.FromSeconds(1));
        Assert.True(cube.RunUntil(() => reply.IsCompleted, TimeSpan.FromSeconds(1)));
        cube.RunFor(TimeSpan.FromSeconds(1));

        Assert.Equal(5, (await reply).Id);
        Assert.Equal(2, PacketsDelivered(cube) - before);
        Assert.Equal(0, asker.PendingRequestCount);
    }

    [Fact]
    public void EveryRequestReachesItsHandlerExactlyOnceWhenTheNetworkDropsDuplicatesAndReordersOverManySeeds()
    {
        var faults = new FaultOptions { DropProbability = 0.05, DuplicateProbability = 0.05, ReorderProbability = 0.05 };
        for (var seed = 1; seed <= 25; seed++)
        {
            var cube = SimulatedCube.Start(s_shape, n => n.Register(new ReliableEchoService()), new SimulatedCubeOptions { Seed = seed, Faults = faults });
            var askers = new[] { s_asker, new Coordinate(2, 1, 0), new Coordinate(0, 2, 2) };
            var replies = new List<(int Id, Task<Blob> Reply)>();
            for (var i = 0; i < 40; i++)
            {
                // Mostly one-packet requests (exchanges), every tenth larger than a packet (a flow).
                var size = i % 10 == 9 ? 12_000 : (i * 37) % 2_000;
                var asker = cube[askers[i % askers.Length]].GetService<ReliableEchoService>()!;
                replies.Add((i, asker.EchoAsync(Key.FromString($"k{seed}-{i % 7}"), new Blob { Id = i, Data = new byte[size] }, TimeSpan.FromSeconds(20))));
            }

            Assert.True(cube.RunUntil(() => replies.All(r => r.Reply.IsCompleted), TimeSpan.FromSeconds(20)), $"seed {seed}: not every request ended");
            cube.RunFor(TimeSpan.FromSeconds(2));
            Assert.All(replies, r => Assert.True(r.Reply.IsCompletedSuccessfully, $"seed {seed}, request {r.Id}: {r.Reply.Exception?.InnerException?.Message}"));
            Assert.Equal(Enumerable.Range(0, 40), replies.Select(r => r.Reply.Result.Id));
            var handled = cube.LiveNodes.SelectMany(n => n.GetService<ReliableEchoService>()!.Handled).Order().ToList();
            Assert.True(Enumerable.Range(0, 40).SequenceEqual(handled), $"seed {seed}: handled [{string.Join(',', handled)}]");
        }
    }

    [Fact]
    public async Task DuplicateRequestIsAnsweredWithTheKeptReplyWithoutRunningTheHandlerAgainWhenTheRequestIsSentAgain()
    {
        // A retransmission timeout far below the round trip: the request arrives several times before its reply is back.
        var transport = new ReliableOptions { InitialRetransmissionTimeout = TimeSpan.FromMicroseconds(5), MinimumRetransmissionTimeout = TimeSpan.FromMicroseconds(5) };
        var options = MessagingOptions.Reliable with { Transport = transport };
        var cube = SimulatedCube.Start(s_shape, n => n.Register(new ReliableEchoService(options)), new SimulatedCubeOptions { Seed = 32 });
        var asker = cube[s_asker].GetService<ReliableEchoService>()!;

        var reply = asker.EchoServerAsync(s_far, new Blob { Id = 9, Data = [1, 2, 3] }, TimeSpan.FromSeconds(1));
        Assert.True(cube.RunUntil(() => reply.IsCompleted, TimeSpan.FromSeconds(1)));
        cube.RunFor(TimeSpan.FromSeconds(1));

        Assert.Equal(new byte[] { 1, 2, 3 }, (await reply).Data);
        Assert.Equal([9], cube[s_far].GetService<ReliableEchoService>()!.Handled);
        var requestsArrived = cube[s_far].GetServiceCounters(ReliableEchoService.Id)!.PacketsDelivered;
        var repliesArrived = cube[s_asker].GetServiceCounters(ReliableEchoService.Id)!.PacketsDelivered;
        Assert.True(requestsArrived >= 2, $"{requestsArrived} copies of the request arrived");
        Assert.Equal(requestsArrived, repliesArrived);
    }

    [Fact]
    public async Task RequestFailsWithUnreachableLongBeforeItsTimeoutWhenTheServerDiesWhileItsHandlerRuns()
    {
        var cube = SimulatedCube.Start(s_shape, n => n.Register(new ReliableEchoService()), new SimulatedCubeOptions { Seed = 33 });
        var asker = cube[s_asker].GetService<ReliableEchoService>()!;
        var reply = asker.StallServerAsync(s_far, TimeSpan.FromSeconds(30));
        Assert.True(cube.RunUntil(() => cube[s_far].GetService<ReliableEchoService>()!.Stalled == 1, TimeSpan.FromSeconds(1)));
        var killedAt = cube.Elapsed;

        cube.Kill(s_far);
        Assert.True(cube.RunUntil(() => reply.IsCompleted, TimeSpan.FromSeconds(30)));

        var error = await Assert.ThrowsAsync<RequestFailedException>(() => reply);
        Assert.Equal(RequestFailure.Unreachable, error.Reason);
        Assert.True(cube.Elapsed - killedAt < TimeSpan.FromSeconds(5), $"failed after {cube.Elapsed - killedAt}");
        Assert.Equal(0, asker.PendingRequestCount);
    }

    [Fact]
    public async Task RequestFailsWithTimedOutAtItsOwnTimeoutWhenTheHandlerNeverReplies()
    {
        var cube = SimulatedCube.Start(s_shape, n => n.Register(new ReliableEchoService()), new SimulatedCubeOptions { Seed = 34 });
        var asker = cube[s_asker].GetService<ReliableEchoService>()!;

        var reply = asker.StallServerAsync(s_far, TimeSpan.FromSeconds(15));
        Assert.True(cube.RunUntil(() => reply.IsCompleted, TimeSpan.FromSeconds(20)));

        var error = await Assert.ThrowsAsync<RequestFailedException>(() => reply);
        Assert.Equal(RequestFailure.TimedOut, error.Reason);
        Assert.Equal("No reply to Echo to (1,1,1) within 15000 ms.", error.Message);
        Assert.Equal(1, cube[s_far].GetService<ReliableEchoService>()!.Stalled);
    }

    [Fact]
    public async Task LargeReplyToAOnePacketRequestArrivesWholeOnAFlowWhenTheServiceIsReliable()
    {
        var cube = SimulatedCube.Start(s_shape, n => n.Register(new ReliableEchoService()), new SimulatedCubeOptions { Seed = 35 });
        var asker = cube[s_asker].GetService<ReliableEchoService>()!;

        var reply = asker.GrowServerAsync(s_far, new Grow { Id = 12, Bytes = 300_000 }, TimeSpan.FromSeconds(5));
        Assert.True(cube.RunUntil(() => reply.IsCompleted, TimeSpan.FromSeconds(5)));

        var expected = new byte[300_000];
        new Random(12).NextBytes(expected);
        var blob = await reply;
        Assert.Equal(12, blob.Id);
        Assert.Equal(expected, blob.Data);
        Assert.Equal([12], cube[s_far].GetService<ReliableEchoService>()!.Handled);
        Assert.Equal(0, asker.PendingRequestCount);
    }

    private static long PacketsDelivered(SimulatedCube cube) => cube.LiveNodes.Sum(n => n.GetServiceCounters(ReliableEchoService.Id)!.PacketsDelivered);
}
