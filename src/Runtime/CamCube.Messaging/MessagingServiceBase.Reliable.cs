using System.Buffers;
using CamCube.Packets;
using CamCube.Services;
using CamCube.Services.Reliable;

namespace CamCube.Messaging;

/// <summary>
/// The reliable mode (<see cref="MessageDelivery.Reliable"/>): envelopes carry flags 1. A request
/// that fits one packet is a one-packet exchange of the reliable transport (the reply is its
/// acknowledgement: two packets without loss, the handler runs exactly once); a larger request, a
/// one-way message, and a reply larger than one packet each travel as one message on a flow, which
/// fragments, retransmits and hands it over exactly once. The calls stay the same.
/// </summary>
public abstract partial class MessagingServiceBase
{
    private static readonly ReliableSendCompletion s_ignoreOutcome = static (_, _) => { };
    private readonly ReliableSendCompletion _requestSent;
    private readonly ExchangeCompletion _exchangeEnded;
    private ReliableEndpoint? _reliable;
    private byte[]? _exchangeBuffer;

    /// <inheritdoc/>
    public override void OnRegistered(INodeContext node)
    {
        base.OnRegistered(node);
        if (_options.Delivery == MessageDelivery.Reliable)
        {
            _reliable = new ReliableEndpoint(node, ServiceId, OnReliableMessage, OnExchangeRequest, _options.Transport);
        }
    }

    /// <summary>Gets how many packets the reliable transport under this service sent again after a loss or a timeout (0 in best-effort mode). Read it on the node's loop.</summary>
    public long ReliablePacketsSentAgain => _reliable?.RetransmittedPackets ?? 0;

    /// <summary>Gets the mean timeout the reliable transport under this service learned for a request's first copy, over the servers it has round-trip samples of (zero in best-effort mode or before any sample). Read it on the node's loop.</summary>
    public TimeSpan ReliableMeanLearnedTimeout => _reliable?.MeanLearnedTimeout ?? TimeSpan.Zero;

    /// <summary>Gets how many data packets the reliable transport under this service received twice and dropped (0 in best-effort mode). Read it on the node's loop.</summary>
    public long ReliableDuplicatePackets => _reliable?.DuplicatePackets ?? 0;

    /// <summary>Gets how many one-packet requests the reliable transport under this service received again and answered without the handler (a kept reply, a busy notice, a refusal) or dropped (0 in best-effort mode). Read it on the node's loop.</summary>
    public long ReliableDuplicateRequests => _reliable?.DuplicateRequests ?? 0;

    /// <summary>Gives the reliable transport's packets to links with room (nothing in best-effort mode). A service that overrides this calls the base.</summary>
    /// <param name="link">The link with room.</param>
    /// <returns>A packet for the link, or null.</returns>
    public sealed override Packet? Poll(LinkDirection link) => _reliable?.Poll(link);

    /// <summary>
    /// In reliable mode, fails (or, for a key, moves) what was sent to a server that became
    /// unreachable, before its timeout; then tells the service (<see cref="OnServerReachabilityChangedCore"/>).
    /// Sealed: an exchange with a server that died and came back with no memory of it would otherwise
    /// wait for it and be taken a second time there.
    /// </summary>
    /// <param name="server">The server.</param>
    /// <param name="reachable">Whether it is reachable now.</param>
    public sealed override void OnServerReachabilityChanged(Coordinate server, bool reachable)
    {
        _reliable?.OnServerReachabilityChanged(server, reachable);
        OnServerReachabilityChangedCore(server, reachable);
    }

    /// <summary>A server became reachable or unreachable in this server's view, after the transport took note; does nothing unless overridden.</summary>
    /// <param name="server">The server.</param>
    /// <param name="reachable">Whether it is reachable now.</param>
    protected virtual void OnServerReachabilityChangedCore(Coordinate server, bool reachable)
    {
    }

    private void OnReliableMessage(in ReliableMessage message)
    {
        if (Envelope.TryRead(message.Body, Envelope.ReliableFlag, out var envelope))
        {
            Dispatch(envelope, message.Body[Envelope.SizeBytes..], new MessageContext(message.Source, message.Key ?? KeyCoordinate.At(Node.Self, 0), 0), packet: null);
        }
    }

    /// <summary>A one-packet request arrived (once: the transport answers its duplicates).</summary>
    private void OnExchangeRequest(in ExchangeRequest request)
    {
        var context = new MessageContext(request.Source, request.Key ?? KeyCoordinate.At(Node.Self, 0), request.HopCount);
        if (!Envelope.TryRead(request.Body, Envelope.ReliableFlag, out var envelope) || envelope.Kind != EnvelopeKind.Request)
        {
            FaultReliably(_reliable!, new ReplyAddress(request.Source, 0, request.ExchangeId), RequestFailure.HandlerFault, $"Service {Name} at {Node.Self} got an exchange that is not a request.");
            return;
        }

        Answer(envelope, request.Body[Envelope.SizeBytes..], context, request.ExchangeId);
    }

    private RequestFailedException? RequestReliably<TRequest>(ReliableEndpoint reliable, ulong id, KeyCoordinate destination, bool toServer, TRequest request, TimeSpan timeout, PendingReply pending)
    {
        var envelope = new Envelope(EnvelopeKind.Request, TypeIdOf<TRequest>(), id);
        var body = _encoder.Encode(request);
        RequestFailedException? refused;
        if (Envelope.SizeBytes + body.Length <= reliable.ExchangeRequestBytesMax)
        {
            var bytes = Enclose(reliable, envelope, body);
            var error = toServer
                ? reliable.Request(destination.Home, bytes, _exchangeEnded, pending, out var exchangeId)
                : reliable.Request(destination, bytes, _exchangeEnded, pending, out exchangeId);
            refused = error is null ? null : Failed(error, "The request");
            pending.ExchangeId = exchangeId;
        }
        else
        {
            // A flow's send completion is not cancelled when the request ends, so it names the request it was for.
            refused = SendReliably(reliable, envelope, body, destination, toServer, _requestSent, new SentRequest(pending, id));
        }

        if (refused is null)
        {
            Wait(id, pending, timeout);
        }

        return refused;
    }

    /// <summary>An exchange ended: its reply (or fault) completes the request, unless the reply follows on a flow; a failure fails it.</summary>
    private void OnExchangeEnded(object? state, in ExchangeReply reply, ReliableTransferException? error)
    {
        // An exchange is cancelled when its request ends, so the one that ends here is the request's own.
        var pending = (PendingReply)state!;
        if (!_pending.TryGetValue(pending.RequestId, out var current) || !ReferenceEquals(current, pending))
        {
            return;
        }

        // The exchange is over: nothing to cancel when the request ends.
        pending.ExchangeId = 0;
        if (error is not null)
        {
            Take(pending.RequestId, out _);
            pending.OnFailed(Failed(error, pending.Description));
            return;
        }

        if (!Envelope.TryRead(reply.Body, Envelope.ReliableFlag, out var envelope) || envelope.RequestId != pending.RequestId
            || envelope.Kind is not (EnvelopeKind.Reply or EnvelopeKind.Fault or EnvelopeKind.ReplyFollows))
        {
            Take(pending.RequestId, out _);
            pending.OnFailed(new RequestFailedException(RequestFailure.HandlerFault, $"The reply to {pending.Description} from {reply.Source} is not a reply."));
            return;
        }

        // ReplyFollows: the request was taken; its reply comes on a flow, within the request's own timeout.
        if (envelope.Kind != EnvelopeKind.ReplyFollows)
        {
            Dispatch(envelope, reply.Body[Envelope.SizeBytes..], new MessageContext(reply.Source, KeyCoordinate.At(Node.Self, 0), reply.HopCount), packet: null);
        }
    }

    /// <summary>Sends a reply: in the request's exchange if it came on one and the reply fits, else on a flow (and the exchange answered with <see cref="EnvelopeKind.ReplyFollows"/>).</summary>
    private void ReplyReliably(ReliableEndpoint reliable, ReplyAddress address, ReadOnlySpan<byte> body, Type requestType)
    {
        var envelope = new Envelope(EnvelopeKind.Reply, 0, address.RequestId);
        if (address.ExchangeId != 0 && Envelope.SizeBytes + body.Length <= reliable.ExchangeReplyBytesMax)
        {
            reliable.Reply(address.Asker, address.ExchangeId, Enclose(reliable, envelope, body));
            return;
        }

        if (SendReliably(reliable, envelope, body, KeyCoordinate.At(address.Asker, 0), toServer: true, s_ignoreOutcome, null) is { } refused)
        {
            FaultReliably(reliable, address, refused.Reason, $"{requestType.Name}'s reply: {refused.Message}");
            return;
        }

        if (address.ExchangeId != 0)
        {
            reliable.Reply(address.Asker, address.ExchangeId, Enclose(reliable, new Envelope(EnvelopeKind.ReplyFollows, 0, address.RequestId), default));
        }
    }

    private void FaultReliably(ReliableEndpoint reliable, ReplyAddress address, RequestFailure reason, string text)
    {
        var envelope = new Envelope(EnvelopeKind.Fault, (ushort)reason, address.RequestId);
        if (address.ExchangeId != 0)
        {
            var utf8 = System.Text.Encoding.UTF8.GetBytes(text);
            reliable.Reply(address.Asker, address.ExchangeId, Enclose(reliable, envelope, utf8.AsSpan(0, Math.Min(utf8.Length, reliable.ExchangeReplyBytesMax - Envelope.SizeBytes))));
            return;
        }

        // A fault's text is short; if even it is refused, the asker hears of it at its timeout.
        SendReliably(reliable, envelope, System.Text.Encoding.UTF8.GetBytes(text), KeyCoordinate.At(address.Asker, 0), toServer: true, s_ignoreOutcome, null);
    }

    /// <summary>Writes an envelope and its body into the service's one exchange buffer (valid until the next call) and returns them.</summary>
    private ReadOnlySpan<byte> Enclose(ReliableEndpoint reliable, Envelope envelope, ReadOnlySpan<byte> body)
    {
        var buffer = _exchangeBuffer ??= new byte[Math.Max(reliable.ExchangeReplyBytesMax, reliable.ExchangeRequestBytesMax)];
        envelope.Write(buffer, Envelope.ReliableFlag);
        body.CopyTo(buffer.AsSpan(Envelope.SizeBytes));
        return buffer.AsSpan(0, Envelope.SizeBytes + body.Length);
    }

    /// <summary>Sends an envelope and its body as one reliable message; <paramref name="completion"/> hears how it ended.</summary>
    /// <returns>Null if it was taken; otherwise why not, as a request failure.</returns>
    private static RequestFailedException? SendReliably(ReliableEndpoint reliable, Envelope envelope, ReadOnlySpan<byte> body, KeyCoordinate destination, bool toServer, ReliableSendCompletion completion, object? state)
    {
        var length = Envelope.SizeBytes + body.Length;
        var owner = MemoryPool<byte>.Shared.Rent(length);
        var bytes = owner.Memory[..length];
        envelope.Write(bytes.Span, Envelope.ReliableFlag);
        body.CopyTo(bytes.Span[Envelope.SizeBytes..]);
        var refused = toServer ? reliable.Send(destination.Home, bytes, owner, completion, state) : reliable.Send(destination, bytes, owner, completion, state);
        return refused is null ? null : Failed(refused, envelope.Kind == EnvelopeKind.Request ? "The request" : "The message");
    }

    /// <summary>A reliable request's send ended: if the transport gave up, the request fails now rather than at its timeout.</summary>
    private void OnRequestSent(object? state, ReliableTransferException? error)
    {
        var sent = (SentRequest)state!;
        if (error is not null && sent.Pending.RequestId == sent.RequestId && Take(sent.RequestId, out var pending))
        {
            pending.OnFailed(Failed(error, pending.Description));
        }
    }

    private static RequestFailedException Failed(ReliableTransferException error, string description) => new(
        error.Reason switch
        {
            ReliableFailure.PeerUnreachable => RequestFailure.Unreachable,
            ReliableFailure.MessageTooLarge => RequestFailure.MessageTooLarge,
            ReliableFailure.TimedOut => RequestFailure.TimedOut,
            ReliableFailure.Stopped => RequestFailure.Shutdown,
            ReliableFailure.QueueFull => RequestFailure.QueueFull,
            ReliableFailure.OutcomeUnknown => RequestFailure.OutcomeUnknown,
            _ => RequestFailure.Dropped,
        },
        $"{description} failed on the reliable transport: {error.Message}");
}
