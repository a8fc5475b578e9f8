using CamCube.Packets;

namespace CamCube.Services.Reliable;

/// <content>
/// The requesting side of one-packet exchanges: a request that fits one packet travels alone, with
/// no flow and no acknowledgement of its own; the reply is its acknowledgement. The request is sent
/// again on the RTO measured per peer (RFC 6298, Karn's rule) until the reply, a failure or the caller's cancel.
/// Every copy goes to one server: a request to a key goes to its root in this server's view, and
/// moves to another root (under a new id) only when that server refused it, so no two roots ever take it.
/// </content>
public sealed partial class ReliableEndpoint
{
    /// <summary>How many times the estimate of all peers' samples together a peer's first-copy timeout is at most (<see cref="TimeoutOf"/>).</summary>
    private const int PeerTimeoutOverAllPeersMax = 4;

    private readonly Dictionary<ulong, OpenExchange> _openExchanges = [];
    private readonly Queue<ulong> _exchangeOrder = new();
    private readonly Stack<OpenExchange> _freeExchanges = new();
    private readonly Dictionary<Coordinate, RtoEstimator> _peerRto = [];
    private readonly List<OpenExchange> _endedExchanges = [];
    private readonly Dictionary<ulong, ulong> _movedExchanges = [];
    private readonly Dictionary<Coordinate, uint> _peerLives = [];

    /// <summary>Gets how many times a request to a key moved to another root: the server asked refused it, not being the root.</summary>
    public long MovedExchanges { get; private set; }

    /// <summary>Gets the most bytes of request an exchange carries: the node's packet payload less the 32-byte request header.</summary>
    public int ExchangeRequestBytesMax => _fragmentBytes + ReliableWire.DataHeaderBytes - ReliableWire.RequestHeaderBytes;

    /// <summary>Gets the most bytes of reply an exchange carries: the node's packet payload less the 16-byte reply header.</summary>
    public int ExchangeReplyBytesMax => _fragmentBytes + ReliableWire.DataHeaderBytes - ReliableWire.ReplyHeaderBytes;

    /// <summary>Gets how many exchanges this endpoint asked and waits on.</summary>
    public int OpenExchangeCount => _openExchanges.Count;

    /// <summary>
    /// Begins an exchange with <paramref name="server"/>: <paramref name="request"/> (at most
    /// <see cref="ExchangeRequestBytesMax"/> bytes, copied) goes out in one packet and is sent again on
    /// the server's retransmission timeout until its reply comes; the server's handler takes it exactly
    /// once. <paramref name="completion"/> hears the reply, or the failure: <see cref="ReliableFailure.PeerUnreachable"/>
    /// when the server becomes unreachable, <see cref="ReliableFailure.TimedOut"/> after
    /// <see cref="ReliableOptions.ProgressTimeout"/> with neither reply nor busy notice, <see cref="ReliableFailure.Stopped"/>.
    /// </summary>
    /// <param name="server">The server asked.</param>
    /// <param name="request">The request's bytes.</param>
    /// <param name="completion">Told once how the exchange ended, on the loop (never inside this call).</param>
    /// <param name="state">Passed to <paramref name="completion"/>.</param>
    /// <param name="exchangeId">The exchange's id (for <see cref="Cancel"/>), or 0 if refused.</param>
    /// <returns>Null if the exchange began; otherwise why not (the completion never runs): too large, too many open, unreachable, stopped.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="completion"/> is null.</exception>
    public ReliableTransferException? Request(Coordinate server, ReadOnlySpan<byte> request, ExchangeCompletion completion, object? state, out ulong exchangeId) =>
        Open(server, null, request, completion ?? throw new ArgumentNullException(nameof(completion)), state, out exchangeId);

    /// <summary>
    /// Begins an exchange with the root of <paramref name="key"/>, the handler of one root taking the
    /// request exactly once: every copy goes to the key's root in this server's view. That server
    /// takes it only if it is the root in its own view; otherwise it refuses it for good and names
    /// the root, and the request moves there under a new id. If the root it went to becomes
    /// unreachable before it answered, the exchange fails with <see cref="ReliableFailure.OutcomeUnknown"/>
    /// (it may have been handled there); it is never sent to a second root that might take it too.
    /// See <see cref="Request(Coordinate, ReadOnlySpan{byte}, ExchangeCompletion, object?, out ulong)"/>.
    /// </summary>
    /// <returns>Null if the exchange began; otherwise why not.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="completion"/> is null.</exception>
    public ReliableTransferException? Request(KeyCoordinate key, ReadOnlySpan<byte> request, ExchangeCompletion completion, object? state, out ulong exchangeId) =>
        Open(default, key, request, completion ?? throw new ArgumentNullException(nameof(completion)), state, out exchangeId);

    /// <summary>Stops waiting on an open exchange: it is never sent again and its completion never runs.</summary>
    /// <returns>True if it was open.</returns>
    public bool Cancel(ulong exchangeId)
    {
        if (!_openExchanges.Remove(exchangeId, out var exchange)
            && !(_movedExchanges.Remove(exchangeId, out var current) && _openExchanges.Remove(current, out exchange)))
        {
            return false;
        }

        Recycle(exchange);
        return true;
    }

    private ReliableTransferException? Open(Coordinate server, KeyCoordinate? key, ReadOnlySpan<byte> request, ExchangeCompletion completion, object? state, out ulong exchangeId)
    {
        exchangeId = 0;
        var refused = _stopped ? new ReliableTransferException(ReliableFailure.Stopped, "The reliable endpoint is stopped.")
            : request.Length > ExchangeRequestBytesMax ? new ReliableTransferException(ReliableFailure.MessageTooLarge, $"The request is {request.Length} bytes; an exchange carries at most {ExchangeRequestBytesMax}.")
            : _openExchanges.Count >= _options.OpenExchangesMax ? new ReliableTransferException(ReliableFailure.QueueFull, $"The endpoint already has {_openExchanges.Count} exchanges open, its limit.")
            : key is null && !_node.Reachability.IsReachable(server) ? new ReliableTransferException(ReliableFailure.PeerUnreachable, $"Server {server} is unreachable.")
            : null;
        if (refused is not null)
        {
            return refused;
        }

        var exchange = _freeExchanges.Count > 0 ? _freeExchanges.Pop() : new OpenExchange(ExchangeRequestBytesMax);
        var now = _node.TimeProvider.GetTimestamp();
        exchange.Id = NextFlowId();
        exchange.OriginalId = exchange.Id;
        exchange.Key = key;
        exchange.Peer = key is { } k ? _node.GetRoot(k) : server;
        request.CopyTo(exchange.Request);
        exchange.Length = request.Length;
        exchange.Completion = completion;
        exchange.State = state;
        exchange.LastProgress = now;
        _openExchanges.Add(exchange.Id, exchange);
        NoteOrder(exchange.Id);
        if (SendFirstCopy(exchange, now) is RouteStatus.DroppedUnreachable or RouteStatus.DroppedInvalid)
        {
            _openExchanges.Remove(exchange.Id);
            Recycle(exchange);
            return new ReliableTransferException(ReliableFailure.PeerUnreachable, key is null ? $"Server {server} is unreachable." : $"The root of key {key} is unreachable.");
        }

        ScheduleTimer(exchange.RetransmitAt);
        exchangeId = exchange.Id;
        return null;
    }

    private RouteStatus SendRequestPacket(OpenExchange exchange, long now)
    {
        var packet = _node.CreatePacket();
        var payload = packet.PayloadArea;
        var flags = (byte)((exchange.Key is null ? 0 : ReliableWire.KeyFlowFlag) | (exchange.PeerLife == 0 ? ReliableWire.AgeFlag : 0));
        exchange.NoteCopySent(now);
        ReliableWire.WritePrefix(payload, _tag, ReliablePacketKind.Request, flags, exchange.Id, exchange.PeerLife != 0 ? exchange.PeerLife : AgeMicroseconds(exchange.FirstSentAt));
        payload[ReliableWire.CopyOffset] = exchange.Copy;
        ReliableWire.UInt64(payload, ReliableWire.OldestOpenOffset, OldestOpenExchange(exchange.Id));
        (exchange.Key ?? default).Write(payload[ReliableWire.RequestKeyOffset..]);
        exchange.Request.AsSpan(0, exchange.Length).CopyTo(payload[ReliableWire.RequestHeaderBytes..]);
        packet.PayloadLength = ReliableWire.RequestHeaderBytes + exchange.Length;
        return _node.RouteToServer(packet, exchange.Peer);
    }

    /// <summary>The microseconds since <paramref name="since"/>, a timestamp of the node's clock, at most <see cref="uint.MaxValue"/>.</summary>
    private uint AgeMicroseconds(long since) =>
        (uint)Math.Min(uint.MaxValue, _node.TimeProvider.GetElapsedTime(since).Ticks / TimeSpan.TicksPerMicrosecond);

    /// <summary>
    /// Asks <paramref name="root"/> instead, under a new id: the server asked (<paramref name="left"/>)
    /// refused the request, not being the key's root. The first move sends it at once; a request
    /// that moves again (two servers' views disagree), or whose new root is still <paramref name="left"/>
    /// in this server's view, waits one timeout and goes to the root the view names then.
    /// </summary>
    private void MoveExchange(OpenExchange exchange, Coordinate root, Coordinate left)
    {
        var firstMove = exchange.Id == exchange.OriginalId;
        _openExchanges.Remove(exchange.Id);
        exchange.Id = NextFlowId();
        _openExchanges.Add(exchange.Id, exchange);
        _movedExchanges[exchange.OriginalId] = exchange.Id;
        NoteOrder(exchange.Id);
        MovedExchanges++;
        var now = _node.TimeProvider.GetTimestamp();
        exchange.Attempts = 0;
        exchange.RetransmitAt = now + TimeoutOf(left);
        if (firstMove && root != left && _node.Reachability.IsReachable(root))
        {
            exchange.Peer = root;
            SendFirstCopy(exchange, now);
        }

        ScheduleTimer(exchange.RetransmitAt);
    }

    /// <summary>Sends the request to <see cref="OpenExchange.Peer"/> for the first time: its round trip is a sample of that server's.</summary>
    private RouteStatus SendFirstCopy(OpenExchange exchange, long now)
    {
        exchange.Attempts = 1;
        exchange.PeerLife = _peerLives.GetValueOrDefault(exchange.Peer);
        exchange.TimeoutTicks = exchange.BackoffBaseTicks = TimeoutOf(exchange.Peer);
        exchange.HandlerBusy = false;
        exchange.RetransmitAt = now + exchange.TimeoutTicks;
        return SendRequestPacket(exchange, now);
    }

    /// <summary>A reply or busy notice came: a reply ends its exchange (a late copy finds nothing); a busy notice is progress.</summary>
    private void OnExchangeAnswer(Packet packet, bool busy)
    {
        var payload = packet.Payload;
        var id = ReliableWire.FlowId(payload);
        if (!_openExchanges.TryGetValue(id, out var exchange) || packet.Source != exchange.Peer)
        {
            // A late copy of an answer (perhaps of an earlier life of the server) tells no life worth keeping.
            return;
        }

        NoteLife(packet.Source, payload);

        var now = _node.TimeProvider.GetTimestamp();
        if (busy)
        {
            exchange.LastProgress = now;
            exchange.HandlerBusy = true;
            return;
        }

        _openExchanges.Remove(id);
        if (exchange.TryGetCopySentAt(payload[ReliableWire.CopyOffset], out var sentAt))
        {
            // Karn's rule made exact: the reply names the copy it answers (for the handler's reply, the
            // copy the handler took), so the sample runs from that copy, never from one that was lost.
            // A reply to a copy sent again while the handler worked (a write waiting for its replicas'
            // commits) counts the handler's time, so slow exchanges teach the timeout and are not all
            // sent again.
            RoundTripSamples++;
            RtoOf(exchange.Peer).AddSample(now - sentAt);
            _allPeersRto.AddSample(now - sentAt);
        }

        var completion = exchange.Completion!;
        var state = exchange.State;
        var originalId = exchange.OriginalId;
        Recycle(exchange);
        completion(state, new ExchangeReply(packet.Source, originalId, packet.HopCount, payload[ReliableWire.ReplyHeaderBytes..]), null);
    }

    /// <summary>Sends again each request whose timeout passed, and fails those out of time; returns when the next one is due.</summary>
    private long RetransmitExchanges(long now)
    {
        var next = long.MaxValue;
        foreach (var exchange in _openExchanges.Values)
        {
            if (now - exchange.LastProgress >= _progressTimeoutTicks)
            {
                _endedExchanges.Add(exchange);
                continue;
            }

            if (exchange.RetransmitAt <= now && exchange.Attempts == 0)
            {
                // A move that waited for the view: the root it names now.
                exchange.Peer = _node.GetRoot(exchange.Key!.Value);
                SendFirstCopy(exchange, now);
            }
            else if (exchange.RetransmitAt <= now)
            {
                // RFC 6298 5.5: the timeout doubles with each retransmission, up to the maximum. Until a
                // busy notice came, the copies may all have been lost (or their replies): the doubling
                // stops at ExchangeBackoffLimit times the first timeout. After one, the request is at its
                // handler and the copies only ask for the reply: they keep doubling, a few per handler's run.
                exchange.Attempts++;
                var bound = exchange.HandlerBusy ? long.MaxValue : exchange.BackoffBaseTicks * _options.ExchangeBackoffLimit;
                exchange.TimeoutTicks = Math.Min(Math.Min(exchange.TimeoutTicks * 2, bound), Ticks(_options.MaximumRetransmissionTimeout));
                exchange.RetransmitAt = now + exchange.TimeoutTicks;
                RetransmittedPackets++;
                SendRequestPacket(exchange, now);
            }

            next = Math.Min(next, Math.Min(exchange.RetransmitAt, exchange.LastProgress + _progressTimeoutTicks));
        }

        FailEnded(ReliableFailure.TimedOut, null);
        return next;
    }

    /// <summary>Notes the life an answer of <paramref name="peer"/> names: the next exchanges with it carry it.</summary>
    private void NoteLife(Coordinate peer, ReadOnlySpan<byte> answer)
    {
        var life = ReliableWire.Sequence(answer);
        if (life != 0)
        {
            _peerLives[peer] = life;
        }
    }

    /// <summary>
    /// The server asked answered that it is a later life than the one the request knew: it forgot
    /// what its earlier life took, so the exchange fails as <see cref="ReliableFailure.OutcomeUnknown"/>
    /// (the earlier life may have taken it) rather than be taken a second time.
    /// </summary>
    private bool OnExchangeReset(Coordinate source, ReadOnlySpan<byte> payload)
    {
        if (!_openExchanges.TryGetValue(ReliableWire.FlowId(payload), out var exchange))
        {
            return false;
        }

        if (exchange.Peer == source && exchange.Attempts > 0)
        {
            NoteLife(source, payload);
            _endedExchanges.Add(exchange);
            FailEnded(ReliableFailure.OutcomeUnknown, $"Server {source} restarted before it answered; its earlier life may have taken the request.");
        }

        return true;
    }

    /// <summary>Fails the exchanges waiting on <paramref name="server"/>, which is unreachable.</summary>
    private void FailExchangesTo(Coordinate server)
    {
        foreach (var exchange in _openExchanges.Values)
        {
            if (exchange.Peer == server && exchange.Attempts > 0)
            {
                _endedExchanges.Add(exchange);
            }
        }

        FailEnded(ReliableFailure.PeerUnreachable, $"Server {server} became unreachable before it answered.");
    }

    /// <summary>
    /// A drop notice for a request: unreachable fails its exchange (even the only copy of a request
    /// to a key: a duplicate of it may have arrived before the server died), any other drop has it
    /// sent again at once.
    /// </summary>
    private void OnRequestDropped(in DroppedPacket drop)
    {
        if (!_openExchanges.TryGetValue(ReliableWire.FlowId(drop.PayloadPrefix), out var exchange) || exchange.Attempts == 0)
        {
            return;
        }

        if (drop.Reason is DropReason.Unreachable or DropReason.NoRoute)
        {
            _endedExchanges.Add(exchange);
            FailEnded(ReliableFailure.PeerUnreachable, $"The request to {exchange.Peer} was dropped at {drop.DroppedAt}: unreachable.");
            return;
        }

        exchange.RetransmitAt = _node.TimeProvider.GetTimestamp();
        ScheduleTimer(exchange.RetransmitAt);
    }

    /// <summary>Fails every exchange in <see cref="_endedExchanges"/>; one to a key whose root may have handled it fails as <see cref="ReliableFailure.OutcomeUnknown"/>.</summary>
    private void FailEnded(ReliableFailure reason, string? why)
    {
        if (_endedExchanges.Count == 0)
        {
            return;
        }

        var ended = _endedExchanges.ToArray();
        _endedExchanges.Clear();
        foreach (var exchange in ended)
        {
            _openExchanges.Remove(exchange.Id);
        }

        foreach (var exchange in ended)
        {
            var completion = exchange.Completion!;
            var state = exchange.State;
            var text = why ?? $"No reply from {exchange.Peer} for {_options.ProgressTimeout.TotalSeconds:0.###} s.";
            var failure = reason == ReliableFailure.PeerUnreachable && exchange.Key is not null ? ReliableFailure.OutcomeUnknown : reason;
            Recycle(exchange);
            completion(state, default, new ReliableTransferException(failure, text));
        }
    }

    /// <summary>The timeout a request's first copy to <paramref name="peer"/> would wait now (for tests).</summary>
    internal TimeSpan FirstCopyTimeoutOf(Coordinate peer) => TimeSpan.FromSeconds((double)TimeoutOf(peer) / _node.TimeProvider.TimestampFrequency);

    private RtoEstimator RtoOf(Coordinate peer)
    {
        if (!_peerRto.TryGetValue(peer, out var rto))
        {
            // Its timeout before a sample is never read: TimeoutOf learns it from the other peers.
            rto = NewRtoEstimator();
            _peerRto.Add(peer, rto);
        }

        return rto;
    }

    private RtoEstimator NewRtoEstimator() =>
        new(Ticks(_options.InitialRetransmissionTimeout), Ticks(_options.MinimumRetransmissionTimeout), Ticks(_options.MaximumRetransmissionTimeout), Ticks(_options.ClockGranularity));

    /// <summary>
    /// The timeout a request's first copy to <paramref name="peer"/> waits: the peer's own estimate
    /// once it has a sample; until then the one learned from the other peers now, not when the peer
    /// was first asked (a node just started asks its first peers before any sample, and a reply to a
    /// copy past the first <see cref="OpenExchange.CopiesTimed"/> gives none). Either is at most
    /// <see cref="PeerTimeoutOverAllPeersMax"/> times the estimate of every peer's samples together: a
    /// peer asked rarely (a front-end asks each key's primary a few times a second) keeps an outlier
    /// (a write that waited a second for its replicas, a process not yet compiled) for many samples,
    /// and its copies would wait that long after a loss, while the estimate of all peers, sampled by
    /// every reply, has forgotten it.
    /// </summary>
    private long TimeoutOf(Coordinate peer)
    {
        var own = RtoOf(peer) is { HasSample: true } rto ? rto.TimeoutTicks : FirstTimeoutTicks();
        return _allPeersRto.HasSample ? Math.Min(own, PeerTimeoutOverAllPeersMax * _allPeersRto.TimeoutTicks) : own;
    }

    /// <summary>
    /// The timeout of a peer not yet sampled: twice the longest measured timeout (before backoff) of
    /// the peers this endpoint has round-trip samples of (a new peer is a few hops further at most,
    /// on the same links), never above <see cref="ReliableOptions.InitialRetransmissionTimeout"/>, which
    /// it is when there is no sample yet. A request lost on its way to a new peer is then sent again
    /// after a few round trips of the cube, not the initial timeout's 200 ms.
    /// </summary>
    private long FirstTimeoutTicks()
    {
        var initial = Ticks(_options.InitialRetransmissionTimeout);
        long longest = 0;
        foreach (var known in _peerRto.Values)
        {
            if (known.HasSample)
            {
                longest = Math.Max(longest, known.MeasuredTicks);
            }
        }

        return longest == 0 ? initial : Math.Min(initial, 2 * longest);
    }

    /// <summary>Notes an id in the order exchanges began; the queue is compacted when ended ids pile up behind a long-open one.</summary>
    private void NoteOrder(ulong id)
    {
        _exchangeOrder.Enqueue(id);
        if (_exchangeOrder.Count > 4 * _options.OpenExchangesMax)
        {
            for (var i = _exchangeOrder.Count; i > 0; i--)
            {
                var old = _exchangeOrder.Dequeue();
                if (_openExchanges.ContainsKey(old))
                {
                    _exchangeOrder.Enqueue(old);
                }
            }
        }
    }

    /// <summary>
    /// The lowest id of an exchange still open, for a request of id <paramref name="requestId"/>: the
    /// responder may forget every lower one of the same high half. The responder compares ids only
    /// within one high half (its table of this requester's answers is per high half), so an oldest
    /// open exchange from before the counter's last wrap is sent as the start of the request's own
    /// high half: nothing of the new half is forgotten while an exchange of the old one still runs.
    /// </summary>
    private ulong OldestOpenExchange(ulong requestId)
    {
        while (_exchangeOrder.Count > 0 && !_openExchanges.ContainsKey(_exchangeOrder.Peek()))
        {
            _exchangeOrder.Dequeue();
        }

        var oldest = _exchangeOrder.Count > 0 ? _exchangeOrder.Peek() : requestId;
        const ulong highHalf = 0xFFFF_FFFF_0000_0000UL;
        return (oldest & highHalf) == (requestId & highHalf) ? oldest : requestId & highHalf;
    }

    private void Recycle(OpenExchange exchange)
    {
        if (exchange.OriginalId != exchange.Id)
        {
            _movedExchanges.Remove(exchange.OriginalId);
        }

        exchange.Clear();
        _freeExchanges.Push(exchange);
    }

    /// <summary>Fails every open exchange as the endpoint stops.</summary>
    private void StopExchanges()
    {
        _endedExchanges.AddRange(_openExchanges.Values);
        FailEnded(ReliableFailure.Stopped, "The reliable endpoint stopped before the reply came.");
        _exchangeOrder.Clear();
        foreach (var table in _answers.Values)
        {
            table.Clear(_freeAnswers);
        }

        _answers.Clear();
    }
}
