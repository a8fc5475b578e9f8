using CamCube.Testing;
using CamCube.Transport.Faults;

namespace CamCube.Messaging.Tests;

public sealed class ReliableModeTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_asker = new(0, 0, 0);

    [Fact]
    public async Task RequestAsyncCarriesAMegabyteEachWayWhenTheServiceIsReliable()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new ReliableEchoService()));
        var asker = cube[s_asker].GetService<ReliableEchoService>()!;
        var data = new byte[1_000_000];
        new Random(3).NextBytes(data);

        var reply = asker.EchoAsync(Key.FromString("big"), new Blob { Id = 7, Data = data }, TimeSpan.FromSeconds(1));
        Assert.True(cube.RunUntil(() => reply.IsCompleted, TimeSpan.FromSeconds(1)));

        var echoed = await reply;
        Assert.Equal(7, echoed.Id);
        Assert.Equal(data, echoed.Data);
        var root = KeySpace.For(s_shape).GetServersForKey(Key.FromString("big"), 1)[0];
        Assert.Equal([7], cube[root].GetService<ReliableEchoService>()!.Handled);
        Assert.Equal(0, asker.PendingRequestCount);
    }

    [Fact]
    public void EveryRequestIsHandledExactlyOnceAndAnsweredWhenTheNetworkDropsDuplicatesAndReorders()
    {
        var faults = new FaultOptions { DropProbability = 0.05, DuplicateProbability = 0.05, ReorderProbability = 0.05 };
        var cube = SimulatedCube.Start(s_shape, n => n.Register(new ReliableEchoService()), new SimulatedCubeOptions { Seed = 21, Faults = faults });
        var asker = cube[s_asker].GetService<ReliableEchoService>()!;
        var replies = Enumerable.Range(0, 60)
            .Select(i => asker.EchoAsync(Key.FromString($"k{i % 9}"), new Blob { Id = i, Data = new byte[i * 500] }, TimeSpan.FromSeconds(10)))
            .ToArray();

        Assert.True(cube.RunUntil(() => replies.All(r => r.IsCompleted), TimeSpan.FromSeconds(10)));

        Assert.All(replies, r => Assert.True(r.IsCompletedSuccessfully, r.Exception?.InnerException?.Message));
        Assert.Equal(Enumerable.Range(0, 60), replies.Select(r => r.Result.Id));
        var handled = cube.LiveNodes.SelectMany(n => n.GetService<ReliableEchoService>()!.Handled).Order().ToList();
        Assert.Equal(Enumerable.Range(0, 60), handled);
    }

    [Fact]
    public async Task RequestFailsWithUnreachableBeforeItsTimeoutWhenTheServerDiesMidway()
    {
        var target = new Coordinate(1, 1, 1);
        var cube = SimulatedCube.Start(s_shape, n => n.Register(new ReliableEchoService()), new SimulatedCubeOptions { Seed = 22 });
        var asker = cube[s_asker].GetService<ReliableEchoService>()!;
        var start = cube.Elapsed;
        var reply = asker.EchoServerAsync(target, new Blob { Id = 1, Data = new byte[5_000_000] }, TimeSpan.FromSeconds(30));
        cube.RunFor(TimeSpan.FromMilliseconds(10));

        cube.Kill(target);
        Assert.True(cube.RunUntil(() => reply.IsCompleted, TimeSpan.FromSeconds(30)));

        var error = await Assert.ThrowsAsync<RequestFailedException>(() => reply);
        Assert.Equal(RequestFailure.Unreachable, error.Reason);
        Assert.True(cube.Elapsed - start < TimeSpan.FromSeconds(1), $"failed after {cube.Elapsed - start}");
        Assert.Equal(0, asker.PendingRequestCount);
    }

    [Fact]
    public void OneWayMessagesArriveOnceInOrderWhenTheServiceIsReliable()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new ReliableEchoService()));
        var sender = cube[s_asker].GetService<ReliableEchoService>()!;

        for (var i = 0; i < 5; i++)
        {
            Assert.Equal(Services.RouteStatus.Queued, sender.Note(Key.FromString("notes"), $"n{i}"));
        }

        cube.RunFor(TimeSpan.FromMilliseconds(10));
        var root = KeySpace.For(s_shape).GetServersForKey(Key.FromString("notes"), 1)[0];
        Assert.Equal(["n0", "n1", "n2", "n3", "n4"], cube[root].GetService<ReliableEchoService>()!.Notes);
    }
}
