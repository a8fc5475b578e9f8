using ProtoBuf;

namespace CamCube.Messaging;

/// <summary>The handler of a one-way message type: nothing goes back.</summary>
internal sealed class OneWayHandler<TMessage>(Action<TMessage, MessageContext> handler) : MessageHandler(typeof(TMessage))
{
    /// <inheritdoc/>
    public override bool IsRequest => false;

    /// <inheritdoc/>
    public override ReadOnlySpan<byte> Invoke(ReadOnlySpan<byte> body, MessageContext context, MessageEncoder encoder)
    {
        handler(Serializer.Deserialize<TMessage>(body), context);
        return default;
    }
}
