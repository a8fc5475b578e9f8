using ProtoBuf;

namespace CamCube.Messaging;

/// <summary>The handler of a request type: its reply is encoded for the asker.</summary>
internal sealed class RequestHandler<TRequest, TReply>(Func<TRequest, MessageContext, TReply> handler) : MessageHandler(typeof(TRequest))
{
    /// <inheritdoc/>
    public override bool IsRequest => true;

    /// <inheritdoc/>
    public override ReadOnlySpan<byte> Invoke(ReadOnlySpan<byte> body, MessageContext context, MessageEncoder encoder) =>
        encoder.Encode(handler(Serializer.Deserialize<TRequest>(body), context));
}
