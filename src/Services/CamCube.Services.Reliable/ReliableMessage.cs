namespace CamCube.Services.Reliable;

/// <summary>A whole message a <see cref="ReliableEndpoint"/> received, handed to its <see cref="ReliableMessageHandler"/>.</summary>
public readonly ref struct ReliableMessage
{
    /// <summary>Creates the description of a received message.</summary>
    /// <param name="source">The server that sent it.</param>
    /// <param name="flowId">The sender's flow it came on.</param>
    /// <param name="key">The key it was sent to, or null if it was sent to this server.</param>
    /// <param name="body">The message, valid for the call only.</param>
    public ReliableMessage(Coordinate source, ulong flowId, KeyCoordinate? key, ReadOnlySpan<byte> body)
    {
        Source = source;
        FlowId = flowId;
        Key = key;
        Body = body;
    }

    /// <summary>Gets the server that sent the message.</summary>
    public Coordinate Source { get; }

    /// <summary>Gets the sender's flow: messages of one flow arrive in the order they were sent.</summary>
    public ulong FlowId { get; }

    /// <summary>Gets the key the message was sent to (this server was its root when the message began to arrive), or null for a message sent to this server.</summary>
    public KeyCoordinate? Key { get; }

    /// <summary>Gets the message's bytes; a pooled buffer, valid for the handler's call only (copy what must outlive it).</summary>
    public ReadOnlySpan<byte> Body { get; }
}
