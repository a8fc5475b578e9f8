using System.Buffers;
using CamCube.Packets;
using CamCube.Services;
using CamCube.Services.Reliable;

namespace CamCube.Messaging;

/// <summary>
/// The reliable mode (<see cref="MessageDelivery.Reliable"/>): every envelope, with flags 1, and its
/// body travel as one message of the reliable transport, which fragments, retransmits and hands it
/// over exactly once; the calls stay the same.
/// </summary>
public abstract partial class MessagingServiceBase
{
    private static readonly ReliableSendCompletion s_ignoreOutcome = static (_, _) => { };
    private readonly ReliableSendCompletion _requestSent;
    private ReliableEndpoint? _reliable;

    /// <inheritdoc/>
    public override void OnRegistered(INodeContext node)
    {
        base.OnRegistered(node);
        if (_options.Delivery == MessageDelivery.Reliable)
        {
            _reliable = new ReliableEndpoint(node, ServiceId, OnReliableMessage, _options.Transport);
        }
    }

    /// <summary>Gives the reliable transport's packets to links with room (nothing in best-effort mode). A service that overrides this calls the base.</summary>
    /// <param name="link">The link with room.</param>
    /// <returns>A packet for the link, or null.</returns>
    public override Packet? Poll(LinkDirection link) => _reliable?.Poll(link);

    /// <summary>
    /// In reliable mode, fails (or, for a key, moves) what was sent to a server that became
    /// unreachable, before its timeout. A service that overrides this calls the base.
    /// </summary>
    /// <param name="server">The server.</param>
    /// <param name="reachable">Whether it is reachable now.</param>
    public override void OnServerReachabilityChanged(Coordinate server, bool reachable) => _reliable?.OnServerReachabilityChanged(server, reachable);

    private void OnReliableMessage(in ReliableMessage message)
    {
        if (Envelope.TryRead(message.Body, Envelope.ReliableFlag, out var envelope))
        {
            Dispatch(envelope, message.Body[Envelope.SizeBytes..], new MessageContext(message.Source, message.Key ?? KeyCoordinate.At(Node.Self, 0), 0), packet: null);
        }
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
        var request = (PendingRequest)state!;
        if (error is not null && _pending.Remove(request.RequestId, out var pending))
        {
            pending.Timeout?.Dispose();
            pending.Fail(Failed(error, pending.Description));
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
            _ => RequestFailure.Dropped,
        },
        $"{description} failed on the reliable transport: {error.Message}");
}
