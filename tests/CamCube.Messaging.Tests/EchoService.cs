using CamCube.Services;

namespace CamCube.Messaging.Tests;

/// <summary>A typed service for the tests: echoes requests with the answering server, throws on <see cref="Boom"/>, records notes.</summary>
public sealed class EchoService : MessagingServiceBase
{
    public const ushort Id = 0x0051;

    public EchoService()
        : this(MessagingOptions.BestEffort)
    {
    }

    public EchoService(MessagingOptions options)
        : base(Id, "echo", options)
    {
        Handle<Echo, EchoReply>(1, (echo, context) => new EchoReply { Text = echo.Text, X = Node.Self.X, Y = Node.Self.Y, Z = Node.Self.Z });
        Handle<Boom, EchoReply>(2, (boom, context) => throw new InvalidOperationException(boom.Why));
        Handle<Note>(3, (note, context) => Notes.Add((note.Text, context.Source)));
        HandleAsynchronously<Relay, EchoReply>(4, async (relay, context) =>
        {
            // The first root asks the second and answers with its reply; an empty Text fails after the await.
            var inner = await RequestAsync<Echo, EchoReply>(Key.FromString(relay.To), new Echo { Text = relay.Text }, TimeSpan.FromSeconds(1));
            return inner.Text.Length > 0 ? inner : throw new ArgumentException("nothing to relay");
        });
        HandleAsynchronously<Ask, EchoReply>(5, AnswerAtOnce, (ask, context) =>
        {
            AnsweredLater++;
            return Task.FromResult(new EchoReply { Text = "later: " + ask.Text });
        });
        HandleAsynchronously<Wait, EchoReply>(6, async (wait, context) =>
        {
            await DelayAsync(TimeSpan.FromMilliseconds(wait.Milliseconds));
            return new EchoReply { Text = wait.Text };
        });
    }

    public List<(string Text, Coordinate From)> Notes { get; } = [];

    /// <summary>Asks <paramref name="server"/> to answer <paramref name="text"/> after <paramref name="milliseconds"/>.</summary>
    public Task<EchoReply> WaitServerAsync(Coordinate server, string text, int milliseconds, TimeSpan timeout) =>
        RequestServerAsync<Wait, EchoReply>(server, new Wait { Text = text, Milliseconds = milliseconds }, timeout);

    public int AnsweredAtOnce { get; private set; }

    public int AnsweredLater { get; private set; }

    public Task<EchoReply> AskAsync(Key key, string text) => RequestAsync<Ask, EchoReply>(key, new Ask { Text = text }, TimeSpan.FromSeconds(1));

    /// <summary>Sends an echo whose reply goes to <paramref name="pending"/>.</summary>
    public RequestFailedException? EchoWith(Key key, string text, TimeSpan timeout, PendingReply pending) =>
        Request(Node.KeySpace.KeyCoordinateOf(key), new Echo { Text = text }, timeout, pending);

    public Task<EchoReply> EchoAsync(Key key, Echo echo, TimeSpan timeout) => RequestAsync<Echo, EchoReply>(key, echo, timeout);

    public Task<EchoReply> EchoServerAsync(Coordinate server, string text, TimeSpan timeout) =>
        RequestServerAsync<Echo, EchoReply>(server, new Echo { Text = text }, timeout);

    public Task<EchoReply> BoomAsync(Key key, string why) => RequestAsync<Boom, EchoReply>(key, new Boom { Why = why }, TimeSpan.FromSeconds(1));

    public Task<EchoReply> RelayAsync(Key key, string to, string text) =>
        RequestAsync<Relay, EchoReply>(key, new Relay { To = to, Text = text }, TimeSpan.FromSeconds(2));

    public RouteStatus Note(Key key, string text) => Send(Node.KeySpace.KeyCoordinateOf(key), new Note { Text = text });

    private bool AnswerAtOnce(Ask ask, MessageContext context, out EchoReply reply)
    {
        reply = new EchoReply { Text = "at once: " + ask.Text };
        AnsweredAtOnce += ask.Text.StartsWith("now", StringComparison.Ordinal) ? 1 : 0;
        return ask.Text.StartsWith("now", StringComparison.Ordinal);
    }

    /// <summary>Fills a packet's payload area with a request the same size (no room is left for the envelope).</summary>
    public Task<EchoReply> EchoTooLargeAsync(Key key)
    {
        var packet = Node.CreatePacket();
        var capacity = packet.PayloadCapacity;
        packet.Release();
        return EchoAsync(key, new Echo { Padding = new byte[capacity] }, TimeSpan.FromSeconds(1));
    }
}
