using System.Text;

namespace CamCube.Messaging;

/// <summary>The answering side: a request's handler runs here and its reply, or why it failed, goes back to the asker.</summary>
public abstract partial class MessagingServiceBase
{
    /// <summary>Sends <paramref name="reply"/> to the request <paramref name="requestId"/> of <paramref name="asker"/>.</summary>
    internal void Reply<TReply>(Coordinate asker, ulong requestId, TReply reply, Type requestType)
    {
        var body = _encoder.Encode(reply);
        if (_reliable is { } reliable)
        {
            if (SendReliably(reliable, new Envelope(EnvelopeKind.Reply, 0, requestId), body, KeyCoordinate.At(asker, 0), toServer: true, s_ignoreOutcome, null) is { } refused)
            {
                SendFault(asker, requestId, refused.Reason, $"{requestType.Name}'s reply: {refused.Message}");
            }

            return;
        }

        var packet = Node.CreatePacket();
        if (body.Length > packet.PayloadCapacity - Envelope.SizeBytes)
        {
            var error = TooLarge(requestType.Name + "'s reply", body.Length, packet);
            packet.Release();
            SendFault(asker, requestId, RequestFailure.MessageTooLarge, error);
            return;
        }

        new Envelope(EnvelopeKind.Reply, 0, requestId).Write(packet.PayloadArea);
        body.CopyTo(packet.PayloadArea[Envelope.SizeBytes..]);
        packet.PayloadLength = Envelope.SizeBytes + body.Length;
        Node.RouteToServer(packet, asker);
    }

    /// <summary>Runs an asynchronous handler in a later turn of the loop, where its awaits resume, and replies when it is done.</summary>
    internal void ReplyLater<TReply>(Coordinate asker, ulong requestId, Type requestType, Func<Task<TReply>> handler)
    {
        Func<Task> answer = () => AnswerLaterAsync(asker, requestId, requestType, handler);
        if (!Node.TryPost(static state => ((Func<Task>)state!)(), answer))
        {
            SendFault(asker, requestId, RequestFailure.QueueFull, $"Service {Name} at {Node.Self} has too much posted work to take {requestType.Name}.");
        }
    }

    /// <summary>Runs a request's handler and sends its reply, or the reason it failed, back to the asker.</summary>
    private void Answer(Envelope request, ReadOnlySpan<byte> body, MessageContext context)
    {
        if (!_handlers.TryGetValue(request.Type, out var handler) || !handler.IsRequest)
        {
            SendFault(context.Source, request.RequestId, RequestFailure.NoHandler, $"Service {Name} at {Node.Self} has no request handler for message type {request.Type}.");
            return;
        }

        try
        {
            handler.Invoke(this, body, context, request.RequestId);
        }
#pragma warning disable CA1031 // Whatever the handler throws goes back to the asker as the reason its request failed.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            SendFault(context.Source, request.RequestId, RequestFailure.HandlerFault, HandlerFailed(handler.MessageType, ex));
        }
    }

    private async Task AnswerLaterAsync<TReply>(Coordinate asker, ulong requestId, Type requestType, Func<Task<TReply>> handler)
    {
        TReply reply;
        try
        {
            // Resumes on the loop through the loop's synchronisation context, current while posted work runs.
            reply = await handler().ConfigureAwait(true);
        }
#pragma warning disable CA1031 // Whatever the handler throws goes back to the asker as the reason its request failed.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            if (IsRegistered)
            {
                SendFault(asker, requestId, RequestFailure.HandlerFault, HandlerFailed(requestType, ex));
            }

            return;
        }

        if (IsRegistered)
        {
            Reply(asker, requestId, reply, requestType);
        }
    }

    private void SendFault(Coordinate asker, ulong requestId, RequestFailure reason, string text)
    {
        if (_reliable is { } reliable)
        {
            // A fault's text is short; if even it is refused, the asker hears of it at its timeout.
            SendReliably(reliable, new Envelope(EnvelopeKind.Fault, (ushort)reason, requestId), Encoding.UTF8.GetBytes(text), KeyCoordinate.At(asker, 0), toServer: true, s_ignoreOutcome, null);
            return;
        }

        var packet = Node.CreatePacket();
        new Envelope(EnvelopeKind.Fault, (ushort)reason, requestId).Write(packet.PayloadArea);
        var room = packet.PayloadArea[Envelope.SizeBytes..];
        var length = Encoding.UTF8.GetByteCount(text) <= room.Length ? Encoding.UTF8.GetBytes(text, room) : 0;
        packet.PayloadLength = Envelope.SizeBytes + length;
        Node.RouteToServer(packet, asker);
    }

    private string HandlerFailed(Type requestType, Exception ex) => $"{requestType.Name} failed at {Node.Self}: {ex.GetType().Name}: {ex.Message}";
}
