using System.Text;

namespace CamCube.Messaging;

/// <summary>The answering side: a request's handler runs here and its reply, or why it failed, goes back to the asker.</summary>
public abstract partial class MessagingServiceBase
{
    /// <summary>Sends <paramref name="reply"/> to the request at <paramref name="address"/>.</summary>
    internal void Reply<TReply>(ReplyAddress address, TReply reply, Type requestType)
    {
        var body = _encoder.Encode(reply);
        if (_reliable is { } reliable)
        {
            ReplyReliably(reliable, address, body, requestType);
            return;
        }

        var packet = Node.CreatePacket();
        if (body.Length > packet.PayloadCapacity - Envelope.SizeBytes)
        {
            var error = TooLarge(requestType.Name + "'s reply", body.Length, packet);
            packet.Release();
            SendFault(address, RequestFailure.MessageTooLarge, error);
            return;
        }

        new Envelope(EnvelopeKind.Reply, 0, address.RequestId).Write(packet.PayloadArea);
        body.CopyTo(packet.PayloadArea[Envelope.SizeBytes..]);
        packet.PayloadLength = Envelope.SizeBytes + body.Length;
        Node.RouteToServer(packet, address.Asker);
    }

    /// <summary>Runs an asynchronous handler in a later turn of the loop, where its awaits resume, and replies when it is done.</summary>
    internal void ReplyLater(LaterAnswer answer)
    {
        if (!Node.TryPost(LaterAnswer.Run, answer))
        {
            SendFault(answer.Address, RequestFailure.QueueFull, $"Service {Name} at {Node.Self} has too much posted work to take {answer.RequestType.Name}.");
        }
    }

    /// <summary>Sends an asynchronous handler's reply, unless the service left its node meanwhile.</summary>
    internal void ReplyIfRegistered<TReply>(ReplyAddress address, TReply reply, Type requestType)
    {
        if (IsRegistered)
        {
            Reply(address, reply, requestType);
        }
    }

    /// <summary>Sends why an asynchronous handler failed, unless the service left its node meanwhile.</summary>
    internal void ReplyFault(LaterAnswer answer, Exception error)
    {
        if (IsRegistered)
        {
            SendFault(answer.Address, RequestFailure.HandlerFault, HandlerFailed(answer.RequestType, error));
        }
    }

    /// <summary>Runs a request's handler and sends its reply, or the reason it failed, back to the asker.</summary>
    private void Answer(Envelope request, ReadOnlySpan<byte> body, MessageContext context, ulong exchangeId)
    {
        var address = new ReplyAddress(context.Source, request.RequestId, exchangeId);
        if (!_handlers.TryGetValue(request.Type, out var handler) || !handler.IsRequest)
        {
            SendFault(address, RequestFailure.NoHandler, $"Service {Name} at {Node.Self} has no request handler for message type {request.Type}.");
            return;
        }

        try
        {
            handler.Invoke(this, body, context, address);
        }
#pragma warning disable CA1031 // Whatever the handler throws goes back to the asker as the reason its request failed.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            SendFault(address, RequestFailure.HandlerFault, HandlerFailed(handler.MessageType, ex));
        }
    }

    private void SendFault(ReplyAddress address, RequestFailure reason, string text)
    {
        if (_reliable is { } reliable)
        {
            FaultReliably(reliable, address, reason, text);
            return;
        }

        var packet = Node.CreatePacket();
        new Envelope(EnvelopeKind.Fault, (ushort)reason, address.RequestId).Write(packet.PayloadArea);
        var room = packet.PayloadArea[Envelope.SizeBytes..];
        var length = Encoding.UTF8.GetByteCount(text) <= room.Length ? Encoding.UTF8.GetBytes(text, room) : 0;
        packet.PayloadLength = Envelope.SizeBytes + length;
        Node.RouteToServer(packet, address.Asker);
    }

    private string HandlerFailed(Type requestType, Exception ex) => $"{requestType.Name} failed at {Node.Self}: {ex.GetType().Name}: {ex.Message}";
}
