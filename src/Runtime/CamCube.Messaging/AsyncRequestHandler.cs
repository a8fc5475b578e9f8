using ProtoBuf;

namespace CamCube.Messaging;

/// <summary>The asynchronous handler of a request type: it may await (other requests, timers) before its reply goes back.</summary>
internal sealed class AsyncRequestHandler<TRequest, TReply>(Func<TRequest, MessageContext, Task<TReply>> handler) : MessageHandler(typeof(TRequest))
{
    /// <inheritdoc/>
    public override bool IsRequest => true;

    /// <inheritdoc/>
    public override void Invoke(MessagingServiceBase service, ReadOnlySpan<byte> body, MessageContext context, ReplyAddress address)
    {
        var request = Serializer.Deserialize<TRequest>(body);
        service.ReplyLater(address, MessageType, () => handler(request, context));
    }
}
