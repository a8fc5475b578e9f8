using System.Text;
using CamCube.Packets;
using CamCube.Services;
using CamCube.Services.Reliable;

namespace CamCube.Messaging;

/// <summary>
/// A base for services that talk in typed messages (protobuf-net contracts) off the hot path:
/// register a handler per message type in the constructor with <see cref="Handle{TRequest, TReply}"/>
/// or <see cref="Handle{TMessage}"/>, then route a request to a key's root and await its reply in one
/// call with <see cref="RequestAsync{TRequest, TReply}(Key, TRequest, TimeSpan)"/>, or send one-way
/// messages with <see cref="Send{TMessage}(KeyCoordinate, TMessage)"/>. Hot-path services keep the
/// span API of <see cref="ServiceBase"/>.
/// </summary>
/// <remarks>
/// Every call here, like every call on <see cref="ServiceBase.Node"/>, is made on the node's event loop;
/// handlers run there and a request's task completes there. Each message travels in one packet
/// (best effort: a lost request or reply shows as <see cref="RequestFailure.TimedOut"/>); the
/// envelope's flags byte marks the reliable mode (<see cref="MessagingOptions.Reliable"/>), which adds
/// large messages, retransmission and exactly-once delivery to the handler without changing these calls:
/// a request that fits one packet is a one-packet exchange of the reliable transport (two packets
/// without loss, the reply being the acknowledgement), anything larger a message on a flow.
/// </remarks>
public abstract partial class MessagingServiceBase : ServiceBase
{
    private readonly Dictionary<ushort, MessageHandler> _handlers = [];
    private readonly Dictionary<Type, ushort> _typeIds = [];
    private readonly MessageEncoder _encoder = new();
    private readonly MessagingOptions _options;
    private ulong _lastRequestId;

    /// <summary>Creates a best-effort service with its id and name.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The id is 0 or in the runtime's range (0xFF00 and above).</exception>
    protected MessagingServiceBase(ushort serviceId, string name)
        : this(serviceId, name, MessagingOptions.BestEffort)
    {
    }

    /// <summary>Creates the service with its id, name and settings: <see cref="MessagingOptions.Reliable"/> puts every message on the reliable transport.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The id is 0 or in the runtime's range (0xFF00 and above), or a transport option is out of range.</exception>
    /// <exception cref="ArgumentNullException"><paramref name="options"/> is null.</exception>
    protected MessagingServiceBase(ushort serviceId, string name, MessagingOptions options)
        : base(serviceId, name)
    {
        _options = options ?? throw new ArgumentNullException(nameof(options));
        (options.Transport ?? new ReliableOptions()).Validate();
        _requestSent = OnRequestSent;
        _exchangeEnded = OnExchangeEnded;
    }

    /// <summary>Gets how the service's messages travel: best effort, or on the reliable transport.</summary>
    public MessageDelivery Delivery => _options.Delivery;

    /// <summary>
    /// Registers the handler of requests of type <typeparamref name="TRequest"/>, sent under
    /// <paramref name="messageType"/> (a number of this service's choosing, the same on every node):
    /// it runs on the node that receives the request, and what it returns goes back to the asker.
    /// If it throws, the asker's task fails with <see cref="RequestFailure.HandlerFault"/> and the exception's message.
    /// </summary>
    /// <exception cref="ArgumentException">The message type or <typeparamref name="TRequest"/> already has a handler.</exception>
    protected void Handle<TRequest, TReply>(ushort messageType, Func<TRequest, MessageContext, TReply> handler)
    {
        ArgumentNullException.ThrowIfNull(handler);
        AddHandler(messageType, new RequestHandler<TRequest, TReply>(handler));
    }

    /// <summary>
    /// Registers an asynchronous handler of requests of type <typeparamref name="TRequest"/>: it may
    /// await other requests, or the node's timers, before it returns the reply. It starts in a later
    /// turn of the node's loop and its awaits resume on the loop, so it may use the node throughout.
    /// If its task fails, the asker's fails with <see cref="RequestFailure.HandlerFault"/>.
    /// </summary>
    /// <exception cref="ArgumentException">The message type or <typeparamref name="TRequest"/> already has a handler.</exception>
    protected void HandleAsynchronously<TRequest, TReply>(ushort messageType, Func<TRequest, MessageContext, Task<TReply>> handler)
    {
        ArgumentNullException.ThrowIfNull(handler);
        AddHandler(messageType, new AsyncRequestHandler<TRequest, TReply>(handler));
    }

    /// <summary>
    /// Registers an asynchronous handler of requests of type <typeparamref name="TRequest"/> that answers
    /// some requests in the upcall that brought them: <paramref name="atOnce"/> runs there, and a request it
    /// answers costs no later turn of the loop; the others go to <paramref name="handler"/>, as with
    /// <see cref="HandleAsynchronously{TRequest, TReply}(ushort, Func{TRequest, MessageContext, Task{TReply}})"/>.
    /// If <paramref name="atOnce"/> throws, the asker's task fails with <see cref="RequestFailure.HandlerFault"/>.
    /// </summary>
    /// <exception cref="ArgumentException">The message type or <typeparamref name="TRequest"/> already has a handler.</exception>
    protected void HandleAsynchronously<TRequest, TReply>(ushort messageType, TryAnswerAtOnce<TRequest, TReply> atOnce, Func<TRequest, MessageContext, Task<TReply>> handler)
    {
        ArgumentNullException.ThrowIfNull(atOnce);
        ArgumentNullException.ThrowIfNull(handler);
        AddHandler(messageType, new AsyncRequestHandler<TRequest, TReply>(handler, atOnce));
    }

    /// <summary>
    /// Registers the handler of one-way messages of type <typeparamref name="TMessage"/>, sent under
    /// <paramref name="messageType"/>. If it throws, the message is counted as a service fault.
    /// </summary>
    /// <exception cref="ArgumentException">The message type or <typeparamref name="TMessage"/> already has a handler.</exception>
    protected void Handle<TMessage>(ushort messageType, Action<TMessage, MessageContext> handler)
    {
        ArgumentNullException.ThrowIfNull(handler);
        AddHandler(messageType, new OneWayHandler<TMessage>(handler));
    }

    /// <inheritdoc/>
    public sealed override bool OnDeliver(Packet packet)
    {
        ArgumentNullException.ThrowIfNull(packet);
        if (_reliable is { } reliable && reliable.IsEndpointPacket(packet.Payload))
        {
            return reliable.OnDeliver(packet);
        }

        if (!Envelope.TryRead(packet.Payload, out var envelope))
        {
            Node.Drop(packet, DropReason.Malformed);
            return true;
        }

        return Dispatch(envelope, packet.Payload[Envelope.SizeBytes..], Context(packet), packet);
    }

    /// <summary>Hands a message to what waits for it: a pending request, a request handler or a one-way handler.</summary>
    /// <returns>True if the packet (when there is one) was dropped and so taken.</returns>
    private bool Dispatch(Envelope envelope, ReadOnlySpan<byte> body, MessageContext context, Packet? packet)
    {
        switch (envelope.Kind)
        {
            case EnvelopeKind.Reply:
            case EnvelopeKind.Fault:
                // A reply to a request that already timed out, or to an earlier life of this node, finds nothing.
                if (Take(envelope.RequestId, out var pending))
                {
                    if (envelope.Kind == EnvelopeKind.Reply)
                    {
                        pending.OnReply(body);
                    }
                    else
                    {
                        pending.OnFailed(new RequestFailedException((RequestFailure)envelope.Type, Encoding.UTF8.GetString(body)));
                    }
                }

                return false;
            case EnvelopeKind.Request:
                Answer(envelope, body, context, exchangeId: 0);
                return false;
            case EnvelopeKind.ReplyFollows:
                // Only ever the reply of an exchange, handled there; in a packet or a flow it means nothing.
                return false;
            default:
                return DeliverMessage(packet, envelope, body, context);
        }
    }

    /// <inheritdoc/>
    public override void OnDeregistered()
    {
        _reliable?.Stop();
        _reliable = null;
        FailAllPending();
        base.OnDeregistered();
    }

    private void AddHandler(ushort messageType, MessageHandler handler)
    {
        if (_handlers.TryGetValue(messageType, out var existing))
        {
            throw new ArgumentException($"Message type {messageType} of service {Name} is taken by {existing.MessageType.Name}; {handler.MessageType.Name} needs another.", nameof(messageType));
        }

        if (!_typeIds.TryAdd(handler.MessageType, messageType))
        {
            throw new ArgumentException($"{handler.MessageType.Name} already has a handler in service {Name}, as message type {_typeIds[handler.MessageType]}.", nameof(handler));
        }

        _handlers.Add(messageType, handler);
    }

    private static MessageContext Context(Packet packet) => new(packet.Source, packet.Destination, packet.HopCount);

    private bool DeliverMessage(Packet? packet, Envelope envelope, ReadOnlySpan<byte> body, MessageContext context)
    {
        if (!_handlers.TryGetValue(envelope.Type, out var handler) || handler.IsRequest)
        {
            return DropIfPacket(packet, DropReason.Malformed);
        }

        try
        {
            handler.Invoke(this, body, context, default);
            return false;
        }
#pragma warning disable CA1031 // A handler's fault must not stop the node; the message is counted as the service's fault.
        catch (Exception)
#pragma warning restore CA1031
        {
            return DropIfPacket(packet, DropReason.ServiceFault);
        }
    }

    /// <summary>Counts a bad message's packet as dropped; a reliable message has none (the transport has acknowledged it), so nothing is counted.</summary>
    private bool DropIfPacket(Packet? packet, DropReason reason)
    {
        if (packet is null)
        {
            return false;
        }

        Node.Drop(packet, reason);
        return true;
    }

    private static string TooLarge(string what, int length, Packet packet) =>
        $"{what} is {length} bytes encoded; one packet carries at most {packet.PayloadCapacity - Envelope.SizeBytes}.";
}
