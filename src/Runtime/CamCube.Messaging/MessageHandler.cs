namespace CamCube.Messaging;

/// <summary>A handler registered for one message type: decodes the body and runs the service's code.</summary>
internal abstract class MessageHandler(Type messageType)
{
    /// <summary>Gets the type of the message this handler takes.</summary>
    public Type MessageType { get; } = messageType;

    /// <summary>Gets whether the message is a request that gets a reply.</summary>
    public abstract bool IsRequest { get; }

    /// <summary>
    /// Decodes <paramref name="body"/> and runs the handler. A request's reply goes back through
    /// <paramref name="service"/> to <paramref name="address"/>: at once, or from a later turn of the loop for an asynchronous handler.
    /// </summary>
    public abstract void Invoke(MessagingServiceBase service, ReadOnlySpan<byte> body, MessageContext context, ReplyAddress address);
}
