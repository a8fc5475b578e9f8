using CamCube.Testing;

namespace CamCube.Messaging.Tests;

/// <summary>A caller's reusable <see cref="PendingReply"/>: one request at a time, no task, told once per request.</summary>
public sealed class PendingReplyTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_asker = new(0, 0, 0);

    [Theory]
    [InlineData(MessageDelivery.BestEffort)]
    [InlineData(MessageDelivery.Reliable)]
    public void OnePendingReplyHearsEachReplyInTurnWhenItCarriesTheNextRequestFromInsideTheLast(MessageDelivery delivery)
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new EchoService(new MessagingOptions { Delivery = delivery })));
        var asker = cube[s_asker].GetService<EchoService>()!;
        var pending = new RecordingReply();
        pending.Send = (text, reply) => asker.EchoWith(Key.FromString(text), text, TimeSpan.FromSeconds(1), reply);
        foreach (var text in new[] { "beta", "gamma", "delta" })
        {
            pending.Next.Enqueue(text);
        }

        Assert.Null(asker.EchoWith(Key.FromString("alpha"), "alpha", TimeSpan.FromSeconds(1), pending));
        Assert.True(pending.IsWaiting);
        Assert.True(cube.RunUntil(() => pending.Replies.Count == 4, TimeSpan.FromSeconds(1)));

        Assert.Equal(["alpha", "beta", "gamma", "delta"], pending.Replies);
        Assert.Empty(pending.Failures);
        Assert.False(pending.IsWaiting);
        Assert.Equal(0, asker.PendingRequestCount);
    }

    [Fact]
    public void RequestThrowsWhenThePendingReplyAlreadyWaits()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new EchoService()));
        var asker = cube[s_asker].GetService<EchoService>()!;
        var pending = new RecordingReply();
        Assert.Null(asker.EchoWith(Key.FromString("a"), "a", TimeSpan.FromSeconds(1), pending));

        var error = Assert.Throws<InvalidOperationException>(() => asker.EchoWith(Key.FromString("b"), "b", TimeSpan.FromSeconds(1), pending));

        Assert.StartsWith("The pending reply already waits for Echo to ", error.Message, StringComparison.Ordinal);
        Assert.Equal(1, asker.PendingRequestCount);
    }

    [Fact]
    public void RequestsFailEachAtItsOwnTimeoutWhenAShorterOneIsSentAfterALongerOne()
    {
        var silent = new Coordinate(1, 1, 1);
        var cube = InMemoryCube.Start(s_shape, n => n.Register(n.Self == silent ? new SilentService() : new EchoService()));
        var asker = cube[s_asker].GetService<EchoService>()!;
        var start = cube.Clock.Elapsed;
        var longer = asker.EchoServerAsync(silent, "long", TimeSpan.FromMilliseconds(500));
        var shorter = asker.EchoServerAsync(silent, "short", TimeSpan.FromMilliseconds(200));

        Assert.True(cube.RunUntil(() => shorter.IsCompleted, TimeSpan.FromSeconds(1)));
        Assert.Equal(TimeSpan.FromMilliseconds(200), cube.Clock.Elapsed - start);
        Assert.False(longer.IsCompleted);
        Assert.True(cube.RunUntil(() => longer.IsCompleted, TimeSpan.FromSeconds(1)));

        Assert.Equal(TimeSpan.FromMilliseconds(500), cube.Clock.Elapsed - start);
        Assert.Equal(RequestFailure.TimedOut, Assert.IsType<RequestFailedException>(shorter.Exception!.GetBaseException()).Reason);
        Assert.Equal("No reply to Echo to (1,1,1) within 500 ms.", longer.Exception!.GetBaseException().Message);
        Assert.Equal(0, asker.PendingRequestCount);
    }

    [Fact]
    public async Task RequestAnsweredAtOnceNeverReachesTheAsynchronousHandlerAndOneDeclinedDoes()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new EchoService()));
        var asker = cube[s_asker].GetService<EchoService>()!;
        var root = KeySpace.For(s_shape).GetServersForKey(Key.FromString("k"), 1)[0];

        var now = asker.AskAsync(Key.FromString("k"), "now please");
        var later = asker.AskAsync(Key.FromString("k"), "whenever");
        Assert.True(cube.RunUntil(() => now.IsCompleted && later.IsCompleted, TimeSpan.FromSeconds(1)));

        Assert.Equal("at once: now please", (await now).Text);
        Assert.Equal("later: whenever", (await later).Text);
        var answerer = cube[root].GetService<EchoService>()!;
        Assert.Equal((1, 1), (answerer.AnsweredAtOnce, answerer.AnsweredLater));
    }
}
