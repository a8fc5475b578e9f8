namespace CamCube.Messaging;

/// <summary>A handler registered for one message type: decodes the body, runs the service's code, encodes its reply.</summary>
internal abstract class MessageHandler(Type messageType)
{
    /// <summary>Gets the type of the message this handler takes.</summary>
    public Type MessageType { get; } = messageType;

    /// <summary>Gets whether the message is a request that gets a reply.</summary>
    public abstract bool IsRequest { get; }

    /// <summary>Decodes <paramref name="body"/>, runs the handler, and returns the encoded reply (empty for a one-way message).</summary>
    public abstract ReadOnlySpan<byte> Invoke(ReadOnlySpan<byte> body, MessageContext context, MessageEncoder encoder);
}
