using System.Buffers;

namespace CamCube.Services.Reliable;

/// <summary>
/// The reliable transport of camcubeos 5.4 as a part a service embeds: messages of up to
/// <see cref="ReliableOptions.MessageBytesMax"/> bytes to a server or to a key's root, fragmented
/// into packets, with a sliding window and selective acknowledgements per flow, RFC 6298
/// retransmission timeouts, duplicate suppression and in-order, exactly-once delivery per flow.
/// </summary>
/// <remarks>
/// <para>The owning service creates it in <see cref="IService.OnRegistered"/> and feeds it: its
/// tagged packets from <see cref="IService.OnDeliver"/> (<see cref="IsEndpointPacket"/>, then
/// <see cref="OnDeliver"/>), the node's polls (<see cref="Poll"/>: new packets are made only when a
/// link on a shortest path has room, so the endpoint never floods a link), drop notices
/// (<see cref="OnDropped"/>, the owner implements <see cref="IDropObserver"/>), reachability changes
/// (<see cref="OnServerReachabilityChanged"/>) and its end (<see cref="Stop"/>, from
/// <see cref="IService.OnDeregistered"/>). <see cref="ReliableService"/> does all of that.</para>
/// <para>Every member runs on the node's event loop, as every <see cref="INodeContext"/> call does.
/// A flow is the sequence of messages from this endpoint to one server or one key: its messages
/// arrive in order. A message to a key goes to the key's root when it begins; if that server becomes
/// unreachable midway, the message is resumed at the new root from its start if the old root
/// cannot have had all of it, and fails with <see cref="ReliableFailure.OutcomeUnknown"/> otherwise,
/// so it is never delivered at two roots.</para>
/// </remarks>
public sealed partial class ReliableEndpoint
{
    private readonly INodeContext _node;
    private readonly ushort _serviceId;
    private readonly ReliableMessageHandler _handler;
    private readonly ReliableOptions _options;
    private readonly byte _tag;
    private readonly int _fragmentBytes;
    private readonly ITimer _timer;
    private readonly long _progressTimeoutTicks;
    private readonly RtoEstimator _allPeersRto;
    private readonly long _receiveIdleTicks;
    private readonly Dictionary<Coordinate, SendFlow> _serverFlows = [];
    private readonly Dictionary<KeyCoordinate, SendFlow> _keyFlows = [];
    private readonly Dictionary<ulong, SendFlow> _flowsById = [];
    private readonly List<SendFlow> _active = [];
    private readonly Stack<SendFlow> _freeSendFlows = new();
    private readonly Dictionary<(Coordinate Source, ulong FlowId), ReceiveFlow> _receiveFlows = [];
    private readonly Stack<ReceiveFlow> _freeReceiveFlows = new();
    private readonly Stack<OutgoingMessage> _freeMessages = new();
    private readonly uint _life;
    private uint _idHigh;
    private int _heldPackets;
    private readonly long _startedAt;
    private uint _lastFlowNumber;
    private int _queuedMessages;
    private int _nextFlowToPoll;
    private long _timerDue = long.MaxValue;
    private bool _localPosted;
    private bool _localOnTimer;
    private bool _stopped;

    /// <summary>Creates an endpoint for the service <paramref name="serviceId"/> on <paramref name="node"/>.</summary>
    /// <param name="node">The owning service's handle on its node.</param>
    /// <param name="serviceId">The owning service's id: the endpoint's packets travel under it.</param>
    /// <param name="handler">Receives each whole message.</param>
    /// <param name="options">Settings; the defaults if null.</param>
    /// <exception cref="ArgumentNullException"><paramref name="node"/> or <paramref name="handler"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range, or the node's packets cannot carry a fragment.</exception>
    public ReliableEndpoint(INodeContext node, ushort serviceId, ReliableMessageHandler handler, ReliableOptions? options = null)
        : this(node, serviceId, handler, null, options)
    {
    }

    /// <summary>
    /// Creates an endpoint that also answers one-packet exchanges: each request reaches
    /// <paramref name="requestHandler"/> exactly once, and it replies with <see cref="Reply"/>.
    /// </summary>
    /// <param name="node">The owning service's handle on its node.</param>
    /// <param name="serviceId">The owning service's id: the endpoint's packets travel under it.</param>
    /// <param name="handler">Receives each whole message.</param>
    /// <param name="requestHandler">Receives each exchange's request; null to take none (requests are then ignored and their requesters time out).</param>
    /// <param name="options">Settings; the defaults if null.</param>
    /// <exception cref="ArgumentNullException"><paramref name="node"/> or <paramref name="handler"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range, or the node's packets cannot carry a fragment.</exception>
    public ReliableEndpoint(INodeContext node, ushort serviceId, ReliableMessageHandler handler, ExchangeRequestHandler? requestHandler, ReliableOptions? options = null)
    {
        _requestHandler = requestHandler;
        _node = node ?? throw new ArgumentNullException(nameof(node));
        _handler = handler ?? throw new ArgumentNullException(nameof(handler));
        _options = options ?? new ReliableOptions();
        _options.Validate();
        _serviceId = serviceId;
        _tag = _options.PacketTag;
        var probe = node.CreatePacket();
        _fragmentBytes = probe.PayloadCapacity - ReliableWire.DataHeaderBytes;
        probe.Release();
        if (_fragmentBytes < ReliableWire.AckBytesMax - ReliableWire.DataHeaderBytes)
        {
            throw new ArgumentOutOfRangeException(nameof(node), _fragmentBytes, "The node's packets are too small to carry the reliable transport's headers.");
        }

        _allPeersRto = NewRtoEstimator();
        _progressTimeoutTicks = Ticks(_options.ProgressTimeout);
        _receiveIdleTicks = Ticks(_options.ReceiveFlowIdleTimeout);
        _life = NewIncarnation(node.Random.Next(), node.TimeProvider.GetUtcNow().UtcTicks);
        _idHigh = _life;
        _startedAt = node.TimeProvider.GetTimestamp();
        _timer = node.CreateTimer(OnTimer, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
    }

    /// <summary>Gets the settings.</summary>
    public ReliableOptions Options => _options;

    /// <summary>Gets the bytes of a message each packet carries (the node's packet payload less the 36-byte data header).</summary>
    public int FragmentBytes => _fragmentBytes;

    /// <summary>Gets how many messages are queued or in flight.</summary>
    public int QueuedMessageCount => _queuedMessages;

    /// <summary>Gets how many packets were sent again after a loss or a timeout.</summary>
    public long RetransmittedPackets { get; private set; }

    /// <summary>Gets how many exchanges' replies gave a round-trip sample (those naming a copy whose send time is kept).</summary>
    public long RoundTripSamples { get; private set; }

    /// <summary>Gets the mean, over the servers this endpoint has round-trip samples of, of the timeout a request's first copy to each waits (its estimate plus four deviations, before backoff); zero before any sample. Read it on the node's loop.</summary>
    public TimeSpan MeanLearnedTimeout
    {
        get
        {
            long sum = 0;
            var count = 0;
            foreach (var rto in _peerRto.Values)
            {
                if (rto.HasSample)
                {
                    sum += rto.MeasuredTicks;
                    count++;
                }
            }

            return count == 0 ? TimeSpan.Zero : TimeSpan.FromSeconds((double)sum / count / _node.TimeProvider.TimestampFrequency);
        }
    }

    /// <summary>Gets how many data packets arrived that were already received (suppressed duplicates).</summary>
    public long DuplicatePackets { get; private set; }

    /// <summary>Gets how many data packets arrived ahead of order and were not held, as <see cref="ReliableOptions.HeldPacketsMax"/> were held already.</summary>
    public long PacketsNotHeld { get; private set; }

    /// <summary>Gets how many data packets this endpoint holds ahead of order now, over all its receive flows.</summary>
    public int HeldPackets => _heldPackets;

    /// <summary>Gets how many whole messages were handed to the handler.</summary>
    public long DeliveredMessages { get; private set; }

    /// <summary>
    /// Sends <paramref name="message"/> to <paramref name="server"/>. The caller keeps the bytes
    /// unchanged until the task ends.
    /// </summary>
    /// <returns>A task that completes when the server has the whole message, or fails with <see cref="ReliableTransferException"/>.</returns>
    public Task SendAsync(Coordinate server, ReadOnlyMemory<byte> message) => Send(server, null, message, null);

    /// <summary>
    /// Sends <paramref name="message"/> to whichever server is <paramref name="key"/>'s root when the
    /// message begins to arrive (see the remarks of <see cref="ReliableEndpoint"/> for a root that changes midway).
    /// </summary>
    /// <returns>A task that completes when the root has the whole message, or fails with <see cref="ReliableTransferException"/>.</returns>
    public Task SendAsync(KeyCoordinate key, ReadOnlyMemory<byte> message) => Send(default, key, message, null);

    /// <summary>Sends the first <paramref name="length"/> bytes of a pooled buffer to <paramref name="server"/>; the endpoint disposes <paramref name="message"/> when the send ends.</summary>
    /// <returns>A task as <see cref="SendAsync(Coordinate, ReadOnlyMemory{byte})"/>'s.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="length"/> exceeds the buffer.</exception>
    public Task SendAsync(Coordinate server, IMemoryOwner<byte> message, int length) => Send(server, null, Slice(message, length), message);

    /// <summary>Sends the first <paramref name="length"/> bytes of a pooled buffer to <paramref name="key"/>'s root; the endpoint disposes <paramref name="message"/> when the send ends.</summary>
    /// <returns>A task as <see cref="SendAsync(KeyCoordinate, ReadOnlyMemory{byte})"/>'s.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="length"/> exceeds the buffer.</exception>
    public Task SendAsync(KeyCoordinate key, IMemoryOwner<byte> message, int length) => Send(default, key, Slice(message, length), message);

    /// <summary>
    /// Sends <paramref name="message"/> to <paramref name="server"/> and tells <paramref name="completion"/>
    /// how it ended, in a later turn on the loop: the callback form, for a caller that must stay on the
    /// loop (no task, no continuation elsewhere), which allocates nothing per message in steady state
    /// (pass a static lambda or a cached delegate). The caller keeps the bytes unchanged until then;
    /// <paramref name="owner"/>, if given, is disposed when the send ends, refused or not.
    /// </summary>
    /// <returns>Null if the message was taken (the completion will run once); otherwise why it was refused at once (the completion never runs).</returns>
    /// <exception cref="ArgumentNullException"><paramref name="completion"/> is null.</exception>
    public ReliableTransferException? Send(Coordinate server, ReadOnlyMemory<byte> message, IMemoryOwner<byte>? owner, ReliableSendCompletion completion, object? state) =>
        Take(server, null, message, owner, completion ?? throw new ArgumentNullException(nameof(completion)), state, out _);

    /// <summary>Sends <paramref name="message"/> to <paramref name="key"/>'s root and tells <paramref name="completion"/> how it ended; see <see cref="Send(Coordinate, ReadOnlyMemory{byte}, IMemoryOwner{byte}?, ReliableSendCompletion, object?)"/>.</summary>
    /// <returns>Null if the message was taken; otherwise why it was refused at once.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="completion"/> is null.</exception>
    public ReliableTransferException? Send(KeyCoordinate key, ReadOnlyMemory<byte> message, IMemoryOwner<byte>? owner, ReliableSendCompletion completion, object? state) =>
        Take(default, key, message, owner, completion ?? throw new ArgumentNullException(nameof(completion)), state, out _);

    /// <summary>Gets whether a payload is one of this endpoint's packets (its first byte is <see cref="ReliableOptions.PacketTag"/>).</summary>
    public bool IsEndpointPacket(ReadOnlySpan<byte> payload) => payload.Length >= ReliableWire.PrefixBytes && payload[0] == _tag;

    /// <summary>Stops: every message not yet delivered fails with <see cref="ReliableFailure.Stopped"/> and held packets are released.</summary>
    public void Stop()
    {
        if (_stopped)
        {
            return;
        }

        _stopped = true;
        _timer.Dispose();
        var failed = new List<OutgoingMessage>();
        foreach (var flow in _active)
        {
            flow.TakeAll(failed);
        }

        _active.Clear();
        _serverFlows.Clear();
        _keyFlows.Clear();
        _flowsById.Clear();
        foreach (var flow in _receiveFlows.Values)
        {
            ForgetReceiveFlow(flow);
        }

        _receiveFlows.Clear();
        _queuedMessages = 0;
        StopExchanges();
        foreach (var message in failed)
        {
            message.Fail(ReliableFailure.Stopped, "The reliable endpoint stopped before the peer had the whole message.");
        }
    }

    private static ReadOnlyMemory<byte> Slice(IMemoryOwner<byte> owner, int length)
    {
        ArgumentNullException.ThrowIfNull(owner);
        ArgumentOutOfRangeException.ThrowIfNegative(length);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(length, owner.Memory.Length);
        return owner.Memory[..length];
    }

    private long Ticks(TimeSpan span) => (long)(span.TotalSeconds * _node.TimeProvider.TimestampFrequency);

    private Task Send(Coordinate server, KeyCoordinate? key, ReadOnlyMemory<byte> body, IMemoryOwner<byte>? owner) =>
        Take(server, key, body, owner, null, null, out var message) is { } refused ? Task.FromException(refused) : message!.Task;

    /// <summary>Queues a message on its flow, or says why it cannot be sent at all.</summary>
    private ReliableTransferException? Take(Coordinate server, KeyCoordinate? key, ReadOnlyMemory<byte> body, IMemoryOwner<byte>? owner, ReliableSendCompletion? completion, object? state, out OutgoingMessage? message)
    {
        message = null;
        var refused = _stopped ? new ReliableTransferException(ReliableFailure.Stopped, "The reliable endpoint is stopped.")
            : body.Length > _options.MessageBytesMax ? new ReliableTransferException(ReliableFailure.MessageTooLarge, $"The message is {body.Length} bytes; the limit is {_options.MessageBytesMax}.")
            : _queuedMessages >= _options.QueuedMessagesMax ? new ReliableTransferException(ReliableFailure.QueueFull, $"The endpoint already holds {_queuedMessages} messages, its limit.")
            : key is null && !_node.Reachability.IsReachable(server) ? new ReliableTransferException(ReliableFailure.PeerUnreachable, $"Server {server} is unreachable.")
            : null;
        if (refused is not null)
        {
            owner?.Dispose();
            return refused;
        }

        var flow = FlowFor(server, key);
        var packets = Math.Max(1, (body.Length + _fragmentBytes - 1) / _fragmentBytes);
        if (completion is null)
        {
            message = new OutgoingMessage(body, owner, packets);
        }
        else
        {
            message = _freeMessages.Count > 0 ? _freeMessages.Pop() : new OutgoingMessage(_node, _freeMessages);
            message.Reset(body, owner, packets, completion, state);
        }

        if (flow.MessageCount == 0)
        {
            // An idle flow's progress is measured from its next message, not from its last acknowledgement.
            flow.LastProgress = _node.TimeProvider.GetTimestamp();
            FollowRoot(flow);
        }

        flow.Enqueue(message);
        _queuedMessages++;
        Activate(flow);
        return null;
    }

    private SendFlow FlowFor(Coordinate server, KeyCoordinate? key)
    {
        if (key is { } k ? _keyFlows.TryGetValue(k, out var flow) : _serverFlows.TryGetValue(server, out flow))
        {
            return flow;
        }

        flow = _freeSendFlows.Count > 0
            ? _freeSendFlows.Pop()
            : new SendFlow(_options.WindowPacketsMax, _fragmentBytes, new RtoEstimator(Ticks(_options.InitialRetransmissionTimeout), Ticks(_options.MinimumRetransmissionTimeout), Ticks(_options.MaximumRetransmissionTimeout), Ticks(_options.ClockGranularity)));
        flow.Key = key;
        flow.Server = key is { } root ? _node.GetRoot(root) : server;
        flow.Probing = key is not null;
        flow.Carried = false;
        flow.FlowId = NextFlowId();
        flow.LastProgress = _node.TimeProvider.GetTimestamp();
        flow.Rto.Reset();
        _flowsById.Add(flow.FlowId, flow);
        if (key is { } added)
        {
            _keyFlows.Add(added, flow);
        }
        else
        {
            _serverFlows.Add(server, flow);
        }

        return flow;
    }

    /// <summary>
    /// Draws the next flow or exchange id: the high half, then a counter from 1. When the counter
    /// wraps (after 2^32 - 1 ids, about 40 hours at 30,000 a second) the high half moves on by one, so
    /// the ids stay new: peers keep a requester's answers per high half, so the ids after the wrap
    /// are never taken for stale copies of the ones before it. Id 0 is never drawn.
    /// </summary>
    private ulong NextFlowId()
    {
        if (++_lastFlowNumber == 0)
        {
            _idHigh++;
            _lastFlowNumber = 1;
        }

        return ((ulong)_idHigh << 32) | _lastFlowNumber;
    }

    /// <summary>For tests: as if ids up to <paramref name="lastNumber"/> of the counter had been drawn, so that a test reaches the counter's wrap.</summary>
    internal void SkipIdsUpTo(uint lastNumber) => _lastFlowNumber = lastNumber;

    /// <summary>Gets this life of the endpoint, as its exchanges' answers tell it (the upper half of its first ids; fixed for the life, while the ids' upper half moves on at each wrap of their counter).</summary>
    internal uint Life => _life;

    /// <summary>This life's incarnation, the high half of its first flow and exchange ids: new to the peers that remember an earlier life of this node (<see cref="NodeLife"/>).</summary>
    private static uint NewIncarnation(int random, long startTicks)
    {
        var mixed = NodeLife.Mix((ulong)(uint)random << 32, startTicks);
        return (uint)(mixed ^ (mixed >> 32));
    }

    /// <summary>Lists a flow for polling and asks the node to poll, or delivers at once if the flow's server is this one.</summary>
    private void Activate(SendFlow flow)
    {
        if (!flow.Listed)
        {
            flow.Listed = true;
            _active.Add(flow);
        }

        if (flow.Server == _node.Self)
        {
            if (!_localPosted)
            {
                _localPosted = _node.TryPost(static state => ((ReliableEndpoint)state!).DeliverLocally(), this);
                if (!_localPosted)
                {
                    // The service's mailbox is full: the endpoint's timer, which does not go through it, delivers instead.
                    _localOnTimer = true;
                    ScheduleTimer(_node.TimeProvider.GetTimestamp());
                }
            }

            return;
        }

        _node.RequestPoll();
    }

    /// <summary>Retires a flow that has had no message for a while: its id is forgotten and its state reused.</summary>
    private void Retire(SendFlow flow)
    {
        _flowsById.Remove(flow.FlowId);
        if (flow.Key is { } key)
        {
            _keyFlows.Remove(key);
        }
        else
        {
            _serverFlows.Remove(flow.Server);
        }

        if (flow.Listed)
        {
            flow.Listed = false;
            _active.Remove(flow);
        }

        flow.TakeAll([]);
        _freeSendFlows.Push(flow);
    }
}
