using ProtoBuf;

namespace CamCube.Messaging;

/// <summary>
/// The asynchronous handler of a request type: it may await (other requests, timers) before its reply
/// goes back. With <paramref name="atOnce"/>, a request that can be answered in the upcall that brought
/// it is answered there, and only the others wait for a later turn of the loop.
/// </summary>
internal sealed class AsyncRequestHandler<TRequest, TReply>(Func<TRequest, MessageContext, Task<TReply>> handler, TryAnswerAtOnce<TRequest, TReply>? atOnce = null)
    : MessageHandler(typeof(TRequest))
{
    /// <inheritdoc/>
    public override bool IsRequest => true;

    /// <inheritdoc/>
    public override void Invoke(MessagingServiceBase service, ReadOnlySpan<byte> body, MessageContext context, ReplyAddress address)
    {
        var request = Serializer.Deserialize<TRequest>(body);
        if (atOnce is not null && atOnce(request, context, out var reply))
        {
            service.Reply(address, reply, MessageType);
            return;
        }

        service.ReplyLater(new LaterAnswer<TRequest, TReply>(service, address, request, context, handler));
    }
}
