using CamCube.Services;
using CamCube.Testing;

namespace CamCube.Messaging.Tests;

public sealed class MessagingServiceBaseTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_asker = new(0, 0, 0);

    [Fact]
    public async Task RequestAsyncReturnsTheRootsReplyWhenTheKeyIsRoutedAcrossTheCube()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new EchoService()));
        var asker = cube[s_asker].GetService<EchoService>()!;
        var keys = new[] { "alpha", "beta", "gamma", "delta" };
        var replies = keys.Select(k => asker.EchoAsync(Key.FromString(k), new Echo { Text = k }, TimeSpan.FromSeconds(1))).ToArray();

        Assert.True(cube.RunUntil(() => replies.All(r => r.IsCompleted), TimeSpan.FromSeconds(1)));

        for (var i = 0; i < keys.Length; i++)
        {
            var reply = await replies[i];
            Assert.Equal(keys[i], reply.Text);
            Assert.Equal(KeySpace.For(s_shape).GetServersForKey(Key.FromString(keys[i]), 1)[0], reply.Server);
        }

        Assert.Equal(0, asker.PendingRequestCount);
    }

    [Fact]
    public async Task RequestAsyncFailsWithTimedOutAfterExactlyTheTimeoutWhenNoReplyComes()
    {
        var silent = new Coordinate(1, 1, 1);
        var cube = InMemoryCube.Start(s_shape, n => n.Register(n.Self == silent ? new SilentService() : new EchoService()));
        var asker = cube[s_asker].GetService<EchoService>()!;
        var start = cube.Clock.Elapsed;
        var reply = asker.EchoServerAsync(silent, "anyone?", TimeSpan.FromMilliseconds(300));

        Assert.True(cube.RunUntil(() => reply.IsCompleted, TimeSpan.FromSeconds(1)));

        var error = await Assert.ThrowsAsync<RequestFailedException>(() => reply);
        Assert.Equal(RequestFailure.TimedOut, error.Reason);
        Assert.Equal("No reply to Echo to (1,1,1) within 300 ms.", error.Message);
        Assert.Equal(TimeSpan.FromMilliseconds(300), cube.Clock.Elapsed - start);
        Assert.Equal(1, cube[silent].GetService<SilentService>()!.Swallowed);
        Assert.Equal(0, asker.PendingRequestCount);
    }

    [Fact]
    public async Task RequestServerAsyncFailsWithUnreachableAtOnceWhenTheServerIsDead()
    {
        var dead = new Coordinate(2, 2, 2);
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new EchoService()));
        cube.Kill(dead);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        var asker = cube[s_asker].GetService<EchoService>()!;

        var reply = asker.EchoServerAsync(dead, "hello?", TimeSpan.FromSeconds(1));

        Assert.True(reply.IsFaulted);
        var error = await Assert.ThrowsAsync<RequestFailedException>(() => reply);
        Assert.Equal(RequestFailure.Unreachable, error.Reason);
        Assert.Equal("Echo to (2,2,2) was dropped at once: the destination is unreachable.", error.Message);
        Assert.Equal(0, asker.PendingRequestCount);
    }

    [Fact]
    public async Task RequestAsyncFailsWithTheHandlersMessageWhenTheHandlerThrows()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new EchoService()));
        var asker = cube[s_asker].GetService<EchoService>()!;
        var root = KeySpace.For(s_shape).GetServersForKey(Key.FromString("k"), 1)[0];

        var reply = asker.BoomAsync(Key.FromString("k"), "no such counter");
        Assert.True(cube.RunUntil(() => reply.IsCompleted, TimeSpan.FromSeconds(1)));

        var error = await Assert.ThrowsAsync<RequestFailedException>(() => reply);
        Assert.Equal(RequestFailure.HandlerFault, error.Reason);
        Assert.Equal($"Boom failed at {root}: InvalidOperationException: no such counter", error.Message);
    }

    [Fact]
    public async Task RequestServerAsyncFailsWithNoHandlerWhenTheReceiverHasNoneForTheType()
    {
        var older = new Coordinate(1, 2, 0);
        var cube = InMemoryCube.Start(s_shape, n => n.Register(n.Self == older ? new NotesOnlyService() : new EchoService()));
        var asker = cube[s_asker].GetService<EchoService>()!;

        var reply = asker.EchoServerAsync(older, "hello", TimeSpan.FromSeconds(1));
        Assert.True(cube.RunUntil(() => reply.IsCompleted, TimeSpan.FromSeconds(1)));

        var error = await Assert.ThrowsAsync<RequestFailedException>(() => reply);
        Assert.Equal(RequestFailure.NoHandler, error.Reason);
        Assert.Equal("Service notes-only at (1,2,0) has no request handler for message type 1.", error.Message);
    }

    [Fact]
    public async Task AsynchronousHandlerRepliesAfterItsOwnRequestWhenItAwaitsAnotherRoot()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new EchoService()));
        var asker = cube[s_asker].GetService<EchoService>()!;

        var reply = asker.RelayAsync(Key.FromString("first"), to: "second", text: "passed on");
        Assert.True(cube.RunUntil(() => reply.IsCompleted, TimeSpan.FromSeconds(2)));

        var echoed = await reply;
        Assert.Equal("passed on", echoed.Text);
        Assert.Equal(KeySpace.For(s_shape).GetServersForKey(Key.FromString("second"), 1)[0], echoed.Server);
        Assert.All(cube.LiveNodes, n => Assert.Equal(0, n.GetService<EchoService>()!.PendingRequestCount));
    }

    [Fact]
    public async Task AsynchronousHandlerFaultReachesTheAskerWhenItThrowsAfterAnAwait()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new EchoService()));
        var asker = cube[s_asker].GetService<EchoService>()!;
        var root = KeySpace.For(s_shape).GetServersForKey(Key.FromString("first"), 1)[0];

        var reply = asker.RelayAsync(Key.FromString("first"), to: "second", text: "");
        Assert.True(cube.RunUntil(() => reply.IsCompleted, TimeSpan.FromSeconds(2)));

        var error = await Assert.ThrowsAsync<RequestFailedException>(() => reply);
        Assert.Equal(RequestFailure.HandlerFault, error.Reason);
        Assert.Equal($"Relay failed at {root}: ArgumentException: nothing to relay", error.Message);
    }

    [Fact]
    public async Task RequestAsyncFailsWithMessageTooLargeWhenTheRequestDoesNotFitOnePacket()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new EchoService()));
        var asker = cube[s_asker].GetService<EchoService>()!;

        var reply = asker.EchoTooLargeAsync(Key.FromString("k"));

        Assert.True(reply.IsFaulted);
        var error = await Assert.ThrowsAsync<RequestFailedException>(() => reply);
        Assert.Equal(RequestFailure.MessageTooLarge, error.Reason);
        Assert.StartsWith("Echo is ", error.Message, StringComparison.Ordinal);
        Assert.Equal(0, asker.PendingRequestCount);
    }

    [Fact]
    public void SendDeliversAOneWayMessageAtTheKeysRootWhenRouted()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new EchoService()));
        var root = KeySpace.For(s_shape).GetServersForKey(Key.FromString("note"), 1)[0];

        var status = cube[s_asker].GetService<EchoService>()!.Note(Key.FromString("note"), "remember");
        cube.RunUntilIdle();

        Assert.Equal(RouteStatus.Queued, status);
        Assert.Equal(("remember", s_asker), Assert.Single(cube[root].GetService<EchoService>()!.Notes));
        Assert.Equal(1, cube.LiveNodes.Sum(n => n.GetService<EchoService>()!.Notes.Count));
    }

    [Fact]
    public async Task PendingRequestsFailWithShutdownWhenTheServiceIsDeregistered()
    {
        var silent = new Coordinate(1, 1, 1);
        var cube = InMemoryCube.Start(s_shape, n => n.Register(n.Self == silent ? new SilentService() : new EchoService()));
        var asker = cube[s_asker].GetService<EchoService>()!;
        var reply = asker.EchoServerAsync(silent, "anyone?", TimeSpan.FromSeconds(10));
        cube.RunUntilIdle();

        Assert.True(cube[s_asker].Deregister(EchoService.Id));

        var error = await Assert.ThrowsAsync<RequestFailedException>(() => reply);
        Assert.Equal(RequestFailure.Shutdown, error.Reason);
        Assert.Equal(0, asker.PendingRequestCount);
    }

    [Fact]
    public void HandleRejectsASecondHandlerWhenTheMessageTypeIsTaken()
    {
        var error = Assert.Throws<ArgumentException>(() => new ClashingService());

        Assert.StartsWith("Message type 1 of service clash is taken by Echo; Note needs another.", error.Message, StringComparison.Ordinal);
    }

    private sealed class ClashingService : MessagingServiceBase
    {
        public ClashingService()
            : base(0x0052, "clash")
        {
            Handle<Echo, EchoReply>(1, (echo, context) => new EchoReply());
            Handle<Note>(1, (note, context) => { });
        }
    }
}
