using CamCube.Packets;

namespace CamCube.Services.Reliable;

/// <content>
/// The responding side of one-packet exchanges: each request reaches the handler exactly once. The
/// endpoint remembers, per requester, the requests it took and keeps each reply (pooled) to send again
/// for a duplicate; it forgets those below the requester's lowest open exchange id, and keeps at most
/// <see cref="ReliableOptions.AnsweredExchangesPerPeerMax"/> per requester.
/// </content>
public sealed partial class ReliableEndpoint
{
    private readonly Dictionary<(Coordinate Source, uint Incarnation), PeerAnswers> _answers = [];
    private readonly Stack<AnsweredExchange> _freeAnswers = new();
    private readonly List<ulong> _scratchIds = [];
    private readonly ExchangeRequestHandler? _requestHandler;

    /// <summary>Gets how many exchange requests were handed to the request handler.</summary>
    public long HandledRequests { get; private set; }

    /// <summary>Gets how many requests to a key this endpoint refused, not being the key's root (each answered with the root it knows, never handled).</summary>
    public long RefusedRequests { get; private set; }

    /// <summary>Gets how many exchange requests arrived again and were answered from what was kept (or refused as stale), without the handler.</summary>
    public long DuplicateRequests { get; private set; }

    /// <summary>Gets how many requests this endpoint remembers over all requesters (running or answered).</summary>
    internal int RememberedExchangeCount
    {
        get
        {
            var count = 0;
            foreach (var table in _answers.Values)
            {
                count += table.Entries.Count;
            }

            return count;
        }
    }

    /// <summary>
    /// Answers the exchange <paramref name="exchangeId"/> of <paramref name="requester"/> (from the
    /// request handler's call or later, on the loop): the reply goes back in one packet, and a copy is
    /// kept to answer a duplicate of the request.
    /// </summary>
    /// <param name="requester">The request's <see cref="ExchangeRequest.Source"/>.</param>
    /// <param name="exchangeId">The request's <see cref="ExchangeRequest.ExchangeId"/>.</param>
    /// <param name="reply">The reply's bytes, at most <see cref="ExchangeReplyBytesMax"/>; copied.</param>
    /// <returns>True if the reply went; false if the exchange is unknown here, was answered already, or was forgotten (the requester gave up on it).</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="reply"/> is longer than <see cref="ExchangeReplyBytesMax"/>.</exception>
    public bool Reply(Coordinate requester, ulong exchangeId, ReadOnlySpan<byte> reply)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThan(reply.Length, ExchangeReplyBytesMax, nameof(reply));
        if (_stopped || !_answers.TryGetValue((requester, Incarnation(exchangeId)), out var table)
            || !table.Entries.TryGetValue(exchangeId, out var entry) || entry.Replied || entry.Refused)
        {
            return false;
        }

        entry.Keep(reply);
        SendAnswer(requester, ReliablePacketKind.Reply, exchangeId, entry.TakenCopy, reply);
        return true;
    }

    /// <summary>A request arrived: a new one goes to the handler; a duplicate gets the kept reply, or a busy notice while the handler has not replied.</summary>
    private void OnExchangeRequest(Packet packet)
    {
        var payload = packet.Payload;
        if (payload.Length < ReliableWire.RequestHeaderBytes)
        {
            return;
        }

        KeyCoordinate? key = (payload[ReliableWire.FlagsOffset] & ReliableWire.KeyFlowFlag) != 0 ? KeyCoordinate.Read(payload[ReliableWire.RequestKeyOffset..]) : null;
        if (key is { } named && !_node.Shape.Contains(named.Home))
        {
            // A key no server of this cube can be the root of (a requester that broke the format).
            return;
        }

        var source = packet.Source;
        var id = ReliableWire.FlowId(payload);
        var now = _node.TimeProvider.GetTimestamp();
        var table = AnswersOf(source, id, now);
        table.Forget(Math.Min(ReliableWire.UInt64(payload, ReliableWire.OldestOpenOffset), id), _scratchIds, _freeAnswers);
        if (table.Entries.TryGetValue(id, out var entry))
        {
            DuplicateRequests++;
            if (entry.Refused)
            {
                if (key is { } refusedKey)
                {
                    SendControl(source, ReliablePacketKind.NotRoot, id, Life, _node.GetRoot(refusedKey));
                }

                return;
            }

            SendAnswer(source, entry.Replied ? ReliablePacketKind.Reply : ReliablePacketKind.Busy, id, payload[ReliableWire.CopyOffset], entry.Reply);
            return;
        }

        if (id < table.Floor || _requestHandler is null)
        {
            // A stale copy of a request the requester no longer waits on, or one this endpoint cannot take: never handled.
            DuplicateRequests++;
            return;
        }

        if (MayHaveBeenTakenByAnEarlierLife(payload))
        {
            // The requester asked an earlier life of this endpoint, which may have taken the request and is forgotten.
            DuplicateRequests++;
            SendControl(source, ReliablePacketKind.Reset, id, Life, default);
            return;
        }

        if (!table.MakeRoom(_options.AnsweredExchangesPerPeerMax, _freeAnswers))
        {
            // Full, and the requester's oldest exchange here still runs: told to wait, it sends this copy again later.
            SendAnswer(source, ReliablePacketKind.Busy, id, payload[ReliableWire.CopyOffset], default);
            return;
        }

        entry = _freeAnswers.Count > 0 ? _freeAnswers.Pop() : new AnsweredExchange();
        table.Entries.Add(id, entry);
        if (key is { } k && _node.GetRoot(k) is var root && root != _node.Self)
        {
            // Not the key's root: refused, and refused again for every copy, so that the asker may take it to the root.
            entry.Refuse();
            RefusedRequests++;
            SendControl(source, ReliablePacketKind.NotRoot, id, Life, root);
            return;
        }

        HandledRequests++;
        entry.TakenCopy = payload[ReliableWire.CopyOffset];
        try
        {
            _requestHandler(new ExchangeRequest(source, id, key, packet.HopCount, payload[ReliableWire.RequestHeaderBytes..]));
        }
#pragma warning disable CA1031 // A handler's fault must not break the endpoint: the request counts as taken and the fault is logged.
        catch (Exception e)
#pragma warning restore CA1031
        {
            Log.HandlerFault(_node.Logger, e, source, id);
        }
    }

    /// <summary>
    /// Whether an earlier life of this endpoint may have taken the request: the requester names
    /// another life, or, knowing none (it never heard from this server), the request's first copy
    /// left before this life began.
    /// </summary>
    private bool MayHaveBeenTakenByAnEarlierLife(ReadOnlySpan<byte> request)
    {
        var sequence = ReliableWire.Sequence(request);
        return (request[ReliableWire.FlagsOffset] & ReliableWire.AgeFlag) != 0
            ? sequence > AgeMicroseconds(_startedAt)
            : sequence != Life;
    }

    private PeerAnswers AnswersOf(Coordinate source, ulong id, long now)
    {
        if (!_answers.TryGetValue((source, Incarnation(id)), out var table))
        {
            table = new PeerAnswers();
            _answers.Add((source, Incarnation(id)), table);
            ScheduleTimer(now + _receiveIdleTicks);
        }

        table.LastHeard = now;
        return table;
    }

    private static uint Incarnation(ulong exchangeId) => (uint)(exchangeId >> 32);

    private void SendAnswer(Coordinate requester, ReliablePacketKind kind, ulong exchangeId, byte copy, ReadOnlySpan<byte> body)
    {
        var packet = _node.CreatePacket();
        var payload = packet.PayloadArea;
        ReliableWire.WritePrefix(payload, _tag, kind, 0, exchangeId, Life);
        payload[ReliableWire.CopyOffset] = copy;
        body.CopyTo(payload[ReliableWire.ReplyHeaderBytes..]);
        packet.PayloadLength = ReliableWire.ReplyHeaderBytes + body.Length;
        _node.RouteToServer(packet, requester);
    }

    /// <summary>Forgets the tables of requesters silent for <see cref="ReliableOptions.ReceiveFlowIdleTimeout"/>; returns when the next one would be, or <see cref="long.MaxValue"/>.</summary>
    private long EvictIdleAnswers(long now)
    {
        var next = long.MaxValue;
        List<(Coordinate, uint)>? idle = null;
        foreach (var (id, table) in _answers)
        {
            var end = table.LastHeard + _receiveIdleTicks;
            if (end <= now)
            {
                (idle ??= []).Add(id);
            }
            else
            {
                next = Math.Min(next, end);
            }
        }

        if (idle is not null)
        {
            foreach (var id in idle)
            {
                _answers.Remove(id, out var table);
                table!.Clear(_freeAnswers);
            }
        }

        return next;
    }
}
