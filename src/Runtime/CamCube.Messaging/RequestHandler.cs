using ProtoBuf;

namespace CamCube.Messaging;

/// <summary>The handler of a request type: its reply goes back to the asker at once.</summary>
internal sealed class RequestHandler<TRequest, TReply>(Func<TRequest, MessageContext, TReply> handler) : MessageHandler(typeof(TRequest))
{
    /// <inheritdoc/>
    public override bool IsRequest => true;

    /// <inheritdoc/>
    public override void Invoke(MessagingServiceBase service, ReadOnlySpan<byte> body, MessageContext context, ReplyAddress address) =>
        service.Reply(address, handler(Serializer.Deserialize<TRequest>(body), context), MessageType);
}
