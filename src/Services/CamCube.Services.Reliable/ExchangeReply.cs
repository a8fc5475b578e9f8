namespace CamCube.Services.Reliable;

/// <summary>The reply that ended an exchange, handed to the requester's <see cref="ExchangeCompletion"/>.</summary>
public readonly ref struct ExchangeReply
{
    /// <summary>Creates the description of a received reply.</summary>
    /// <param name="source">The server that answered.</param>
    /// <param name="exchangeId">The exchange's id.</param>
    /// <param name="hopCount">The hops the reply took to arrive here.</param>
    /// <param name="body">The reply's bytes, valid for the call only.</param>
    public ExchangeReply(Coordinate source, ulong exchangeId, int hopCount, ReadOnlySpan<byte> body)
    {
        Source = source;
        ExchangeId = exchangeId;
        HopCount = hopCount;
        Body = body;
    }

    /// <summary>Gets the server that answered: the one asked, or for a request to a key, whichever server the key's service had answer it.</summary>
    public Coordinate Source { get; }

    /// <summary>Gets the exchange's id, as the request returned it.</summary>
    public ulong ExchangeId { get; }

    /// <summary>Gets the hops the reply took to arrive here.</summary>
    public int HopCount { get; }

    /// <summary>Gets the reply's bytes: the arrived packet's, valid for the completion's call only (copy what must outlive it).</summary>
    public ReadOnlySpan<byte> Body { get; }
}
