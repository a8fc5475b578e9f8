namespace CamCube.Services.Reliable.Tests;

/// <summary>What one node's reliable service received, each message and request copied out of its pooled buffer.</summary>
internal sealed class Inbox
{
    public Inbox(Coordinate self) => Self = self;

    public Coordinate Self { get; }

    public List<Received> Messages { get; } = [];

    /// <summary>Gets every request handed to the exchange handler, in arrival order.</summary>
    public List<Received> Requests { get; } = [];

    /// <summary>Gets or sets whether requests wait in <see cref="Deferred"/> for the test to answer, rather than being answered at once.</summary>
    public bool Deferring { get; set; }

    public List<Received> Deferred { get; } = [];

    /// <summary>The reply a request gets: its bytes reversed.</summary>
    public static byte[] ReplyTo(ReadOnlySpan<byte> request)
    {
        var reply = request.ToArray();
        Array.Reverse(reply);
        return reply;
    }

    public void Record(in ReliableMessage message) => Messages.Add(new Received(message.Source, message.FlowId, message.Key, message.Body.ToArray()));

    public void Answer(ReliableEndpoint endpoint, in ExchangeRequest request)
    {
        var received = new Received(request.Source, request.ExchangeId, request.Key, request.Body.ToArray());
        Requests.Add(received);
        if (Deferring)
        {
            Deferred.Add(received);
            return;
        }

        Assert.True(endpoint.Reply(request.Source, request.ExchangeId, ReplyTo(request.Body)));
    }

    internal sealed record Received(Coordinate Source, ulong FlowId, KeyCoordinate? Key, byte[] Body);
}
