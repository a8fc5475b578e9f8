using CamCube.Services;
using CamCube.Services.Reliable;

namespace CamCube.Messaging;

/// <summary>The asking side: typed requests and one-way messages routed to a key's root or to a server.</summary>
public abstract partial class MessagingServiceBase
{
    /// <summary>
    /// Routes <paramref name="request"/> to whichever live server is the root of <paramref name="key"/>
    /// and returns a task for its reply, which completes on the node's loop.
    /// </summary>
    /// <param name="key">The key whose root handles the request.</param>
    /// <param name="request">The request; its type has a handler registered with <see cref="Handle{TRequest, TReply}"/>.</param>
    /// <param name="timeout">How long to wait for the reply, on the node's clock.</param>
    /// <returns>The reply; a failed request's task throws <see cref="RequestFailedException"/> with the reason.</returns>
    /// <exception cref="InvalidOperationException"><typeparamref name="TRequest"/> has no handler in this service, or the service is not registered.</exception>
    protected Task<TReply> RequestAsync<TRequest, TReply>(Key key, TRequest request, TimeSpan timeout) =>
        RequestAsync<TRequest, TReply>(Node.KeySpace.KeyCoordinateOf(key), request, timeout);

    /// <summary>Routes <paramref name="request"/> to the root of a key coordinate; see <see cref="RequestAsync{TRequest, TReply}(Key, TRequest, TimeSpan)"/>.</summary>
    protected Task<TReply> RequestAsync<TRequest, TReply>(KeyCoordinate key, TRequest request, TimeSpan timeout) =>
        Request<TRequest, TReply>(key, toServer: false, request, timeout);

    /// <summary>
    /// Sends <paramref name="request"/> to <paramref name="server"/> and returns a task for its reply; the task fails
    /// with <see cref="RequestFailure.Unreachable"/> at once if the server is unreachable from here.
    /// See <see cref="RequestAsync{TRequest, TReply}(Key, TRequest, TimeSpan)"/>.
    /// </summary>
    protected Task<TReply> RequestServerAsync<TRequest, TReply>(Coordinate server, TRequest request, TimeSpan timeout) =>
        Request<TRequest, TReply>(KeyCoordinate.At(server, 0), toServer: true, request, timeout);

    /// <summary>Routes a one-way <paramref name="message"/> to the root of <paramref name="key"/>; nothing comes back.</summary>
    /// <returns>What the node did with the message's packet.</returns>
    /// <exception cref="InvalidOperationException"><typeparamref name="TMessage"/> has no handler in this service, or the service is not registered.</exception>
    /// <exception cref="RequestFailedException">The message does not fit one packet (<see cref="RequestFailure.MessageTooLarge"/>), or in reliable mode the transport refused it at once.</exception>
    protected RouteStatus Send<TMessage>(KeyCoordinate key, TMessage message) =>
        Originate(EnvelopeKind.Message, 0, message, key, toServer: false);

    /// <summary>Sends a one-way <paramref name="message"/> to <paramref name="server"/>; see <see cref="Send{TMessage}(KeyCoordinate, TMessage)"/>.</summary>
    protected RouteStatus SendToServer<TMessage>(Coordinate server, TMessage message) =>
        Originate(EnvelopeKind.Message, 0, message, KeyCoordinate.At(server, 0), toServer: true);

    /// <summary>
    /// Routes <paramref name="request"/> to whichever live server is the root of <paramref name="key"/>;
    /// <paramref name="pending"/>, which waits for nothing else, hears of its reply or failure later, on the
    /// node's loop. The allocation-free form of <see cref="RequestAsync{TRequest, TReply}(KeyCoordinate, TRequest, TimeSpan)"/>
    /// for a caller that keeps its <see cref="PendingReply"/> and asks again with it.
    /// </summary>
    /// <param name="key">The key coordinate whose root handles the request.</param>
    /// <param name="request">The request; its type has a handler registered with <see cref="Handle{TRequest, TReply}"/>.</param>
    /// <param name="timeout">How long to wait for the reply, on the node's clock.</param>
    /// <param name="pending">What hears of the reply.</param>
    /// <returns>Null if the request left (<paramref name="pending"/> is told later); otherwise why it was refused at once (<paramref name="pending"/> is never told).</returns>
    /// <exception cref="InvalidOperationException"><typeparamref name="TRequest"/> has no handler in this service, the service is not registered, or <paramref name="pending"/> already waits.</exception>
    protected RequestFailedException? Request<TRequest>(KeyCoordinate key, TRequest request, TimeSpan timeout, PendingReply pending)
    {
        ArgumentNullException.ThrowIfNull(pending);
        return Request(key, toServer: false, request, timeout, pending);
    }

    private Task<TReply> Request<TRequest, TReply>(KeyCoordinate destination, bool toServer, TRequest request, TimeSpan timeout)
    {
        var pending = new PendingRequest<TReply>();
        return Request(destination, toServer, request, timeout, pending) is { } refused ? Task.FromException<TReply>(refused) : pending.Task;
    }

    private RequestFailedException? Request<TRequest>(KeyCoordinate destination, bool toServer, TRequest request, TimeSpan timeout, PendingReply pending)
    {
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(timeout, TimeSpan.Zero);
        if (pending.IsWaiting)
        {
            throw new InvalidOperationException($"The pending reply already waits for {pending.Description}; it carries one request at a time.");
        }

        if (_lastRequestId == 0)
        {
            // Ids start at a point drawn for this life of the node (its seeded random mixed with the time), so a late reply to an earlier life matches nothing.
            _lastRequestId = (NodeLife.Mix((ulong)Node.Random.NextInt64(), Node.TimeProvider.GetUtcNow().UtcTicks) >> 2) + 1;
        }

        var id = ++_lastRequestId;
        pending.RequestType = typeof(TRequest);
        pending.Destination = destination;
        pending.ToServer = toServer;
        pending.ExchangeId = 0;
        if (_reliable is { } reliable)
        {
            return RequestReliably(reliable, id, destination, toServer, request, timeout, pending);
        }

        RouteStatus status;
        try
        {
            status = Originate(EnvelopeKind.Request, id, request, destination, toServer);
        }
        catch (RequestFailedException ex)
        {
            return ex;
        }

        if (status is not (RouteStatus.Queued or RouteStatus.DeliveredLocally))
        {
            return Refused(status, pending.Description);
        }

        Wait(id, pending, timeout);
        return null;
    }

    private ushort TypeIdOf<TMessage>() =>
        _typeIds.TryGetValue(typeof(TMessage), out var type) ? type : throw new InvalidOperationException($"{typeof(TMessage).Name} has no handler in service {Name}: register one with Handle in its constructor.");

    /// <summary>Encodes a message into a new packet and hands it to the node; a message too large fails before any packet leaves.</summary>
    private RouteStatus Originate<TMessage>(EnvelopeKind kind, ulong requestId, TMessage message, KeyCoordinate destination, bool toServer)
    {
        var type = TypeIdOf<TMessage>();
        var body = _encoder.Encode(message);
        if (_reliable is { } reliable)
        {
            // A one-way message on the reliable transport: taken (queued) or refused at once; nothing comes back.
            return SendReliably(reliable, new Envelope(kind, type, requestId), body, destination, toServer, s_ignoreOutcome, null) is { } refused
                ? throw refused
                : RouteStatus.Queued;
        }

        var packet = Node.CreatePacket();
        if (body.Length > packet.PayloadCapacity - Envelope.SizeBytes)
        {
            var error = TooLarge(typeof(TMessage).Name, body.Length, packet);
            packet.Release();
            throw new RequestFailedException(RequestFailure.MessageTooLarge, error);
        }

        new Envelope(kind, type, requestId).Write(packet.PayloadArea);
        body.CopyTo(packet.PayloadArea[Envelope.SizeBytes..]);
        packet.PayloadLength = Envelope.SizeBytes + body.Length;
        return toServer ? Node.RouteToServer(packet, destination.Home) : Node.RouteToKey(packet, destination);
    }

    private static RequestFailedException Refused(RouteStatus status, string description) => status switch
    {
        RouteStatus.DroppedUnreachable => new(RequestFailure.Unreachable, $"{description} was dropped at once: the destination is unreachable."),
        RouteStatus.DroppedQueueFull => new(RequestFailure.QueueFull, $"{description} was dropped at once: the service's send queue is full."),
        _ => new(RequestFailure.Refused, $"{description} was refused: the node is stopping or the destination is invalid (status {status})."),
    };
}
