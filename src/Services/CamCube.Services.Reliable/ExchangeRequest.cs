namespace CamCube.Services.Reliable;

/// <summary>A request of a one-packet exchange, handed once to the responder's <see cref="ExchangeRequestHandler"/>.</summary>
public readonly ref struct ExchangeRequest
{
    /// <summary>Creates the description of a received request.</summary>
    /// <param name="source">The server that asked.</param>
    /// <param name="exchangeId">The exchange's id, unique per requester: pass it to <see cref="ReliableEndpoint.Reply"/>.</param>
    /// <param name="key">The key the request was routed to, or null if it was sent to this server.</param>
    /// <param name="hopCount">The hops the request took to arrive here.</param>
    /// <param name="body">The request's bytes, valid for the call only.</param>
    public ExchangeRequest(Coordinate source, ulong exchangeId, KeyCoordinate? key, int hopCount, ReadOnlySpan<byte> body)
    {
        Source = source;
        ExchangeId = exchangeId;
        Key = key;
        HopCount = hopCount;
        Body = body;
    }

    /// <summary>Gets the server that asked, to which the reply goes.</summary>
    public Coordinate Source { get; }

    /// <summary>Gets the exchange's id, unique per requester.</summary>
    public ulong ExchangeId { get; }

    /// <summary>Gets the key the request was routed to (this server was its root when it arrived), or null for a request sent to this server.</summary>
    public KeyCoordinate? Key { get; }

    /// <summary>Gets the hops the request took to arrive here.</summary>
    public int HopCount { get; }

    /// <summary>Gets the request's bytes: the arrived packet's, valid for the handler's call only (copy what must outlive it).</summary>
    public ReadOnlySpan<byte> Body { get; }
}
