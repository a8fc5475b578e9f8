using ProtoBuf;

namespace CamCube.Messaging;

/// <summary>The handler of a one-way message type: nothing goes back.</summary>
internal sealed class OneWayHandler<TMessage>(Action<TMessage, MessageContext> handler) : MessageHandler(typeof(TMessage))
{
    /// <inheritdoc/>
    public override bool IsRequest => false;

    /// <inheritdoc/>
    public override void Invoke(MessagingServiceBase service, ReadOnlySpan<byte> body, MessageContext context, ReplyAddress address) =>
        handler(Serializer.Deserialize<TMessage>(body), context);
}
