using CamCube.Packets;

namespace CamCube.Services.Reliable;

/// <content>Sending: packets are made in the node's poll of a link with room, within each flow's window.</content>
public sealed partial class ReliableEndpoint
{
    /// <summary>
    /// The node polls <paramref name="link"/>, which has room: returns the next packet of a flow whose
    /// server lies behind that link on a shortest path (a lost one first, else a new one within the
    /// window), flows taken in turn, or null. Call from the owner's <see cref="IService.Poll"/>.
    /// </summary>
    /// <returns>A packet with its header complete, which becomes the node's; or null.</returns>
    public Packet? Poll(LinkDirection link)
    {
        var count = _active.Count;
        if (_stopped || count == 0)
        {
            return null;
        }

        var bit = 1 << (int)link;
        for (var i = 0; i < count; i++)
        {
            var index = (_nextFlowToPoll + i) % count;
            var flow = _active[index];
            FollowRoot(flow);

            if (!flow.HasPacketToSend || (_node.GetNextHops(flow.Server) & bit) == 0)
            {
                continue;
            }

            var now = _node.TimeProvider.GetTimestamp();
            if (!flow.TryNext(now, out var sequence, out var slot))
            {
                continue;
            }

            _nextFlowToPoll = index + 1;
            RetransmittedPackets += slot.Retransmitted ? 1 : 0;
            if (flow.RetransmitDeadline == 0)
            {
                flow.RetransmitDeadline = now + flow.Rto.TimeoutTicks;
                ScheduleTimer(flow.RetransmitDeadline);
            }

            return DataPacket(flow, sequence, slot);
        }

        return null;
    }

    private Packet DataPacket(SendFlow flow, uint sequence, in SendSlot slot)
    {
        var packet = _node.CreatePacket();
        packet.WriteHeader(_serviceId, DestinationKind.Server, _node.DefaultHopLimit, _node.Self, KeyCoordinate.At(flow.Server, 0));
        var payload = packet.PayloadArea;
        var message = slot.Message!;
        ReliableWire.WritePrefix(payload, _tag, ReliablePacketKind.Data, flow.Key is null ? (byte)0 : ReliableWire.KeyFlowFlag, flow.FlowId, sequence);
        ReliableWire.UInt32(payload, ReliableWire.FirstUnackedOffset, flow.FirstUnacked);
        ReliableWire.UInt32(payload, ReliableWire.MessageLengthOffset, (uint)message.Body.Length);
        ReliableWire.UInt32(payload, ReliableWire.FragmentOffsetOffset, (uint)slot.Offset);
        (flow.Key ?? default).Write(payload[ReliableWire.KeyOffset..]);
        message.Body.Span.Slice(slot.Offset, slot.Length).CopyTo(payload[ReliableWire.DataHeaderBytes..]);
        packet.PayloadLength = ReliableWire.DataHeaderBytes + slot.Length;
        return packet;
    }

    private void OnAck(Coordinate source, ReadOnlySpan<byte> payload)
    {
        if (!_flowsById.TryGetValue(ReliableWire.FlowId(payload), out var flow) || flow.Server != source || payload.Length < ReliableWire.AckBlocksOffset)
        {
            return;
        }

        var blockCount = Math.Min((int)payload[ReliableWire.SackCountOffset], ReliableWire.SackBlocksMax);
        if (payload.Length < ReliableWire.AckBlocksOffset + (blockCount * 8))
        {
            return;
        }

        Span<uint> blocks = stackalloc uint[ReliableWire.SackBlocksMax * 2];
        for (var i = 0; i < blockCount * 2; i++)
        {
            blocks[i] = ReliableWire.UInt32(payload, ReliableWire.AckBlocksOffset + (i * 4));
        }

        var now = _node.TimeProvider.GetTimestamp();
        var before = flow.MessageCount;
        if (flow.OnAck(now, ReliableWire.UInt32(payload, ReliableWire.CumulativeOffset), ReliableWire.Sequence(payload), blocks[..(blockCount * 2)]))
        {
            // RFC 6298 5.2 and 5.3: all acknowledged stops the timer; progress restarts it.
            flow.Carried = true;
            flow.RetransmitDeadline = flow.InFlight == 0 ? 0 : now + flow.Rto.TimeoutTicks;
            if (flow.RetransmitDeadline != 0)
            {
                ScheduleTimer(flow.RetransmitDeadline);
            }
        }

        _queuedMessages -= before - flow.MessageCount;
        if (flow.MessageCount == 0 && flow.Listed)
        {
            flow.Listed = false;
            _active.Remove(flow);
            ScheduleTimer(now + (_receiveIdleTicks / 2));
        }
        else if (flow.HasPacketToSend)
        {
            _node.RequestPoll();
        }
    }

    private void ScheduleTimer(long deadline)
    {
        if (_stopped || deadline >= _timerDue)
        {
            return;
        }

        _timerDue = deadline;
        _timer.Change(TimerWait.Until(deadline, _node.TimeProvider.GetTimestamp(), _node.TimeProvider.TimestampFrequency), Timeout.InfiniteTimeSpan);
    }

    /// <summary>The endpoint's one timer: retransmission timeouts, flows out of time, and idle flows of both halves.</summary>
    private void OnTimer()
    {
        if (_stopped)
        {
            return;
        }

        _timerDue = long.MaxValue;
        if (_localOnTimer)
        {
            _localOnTimer = false;
            DeliverLocally();
        }

        var now = _node.TimeProvider.GetTimestamp();
        var next = long.MaxValue;
        var poll = false;
        List<SendFlow>? ended = null;
        foreach (var flow in _flowsById.Values)
        {
            if (flow.MessageCount == 0)
            {
                var idleEnd = flow.LastProgress + (_receiveIdleTicks / 2);
                if (idleEnd <= now)
                {
                    (ended ??= []).Add(flow);
                }
                else
                {
                    next = Math.Min(next, idleEnd);
                }

                continue;
            }

            if (flow.RetransmitDeadline == 0)
            {
                continue;
            }

            if (now - flow.LastProgress >= _progressTimeoutTicks)
            {
                (ended ??= []).Add(flow);
                continue;
            }

            if (flow.RetransmitDeadline <= now)
            {
                flow.OnTimeout(now);
                flow.RetransmitDeadline = now + flow.Rto.TimeoutTicks;
                poll = true;
            }

            next = Math.Min(next, flow.RetransmitDeadline);
        }

        if (ended is not null)
        {
            foreach (var flow in ended)
            {
                if (flow.MessageCount == 0)
                {
                    Retire(flow);
                }
                else
                {
                    FailFlow(flow, ReliableFailure.TimedOut, $"No progress towards {flow.Server} for {_options.ProgressTimeout.TotalSeconds:0.###} s.");
                }
            }
        }

        next = Math.Min(next, EvictIdleReceiveFlows(now));
        next = Math.Min(next, RetransmitExchanges(now));
        next = Math.Min(next, EvictIdleAnswers(now));
        if (next != long.MaxValue)
        {
            ScheduleTimer(next);
        }

        if (poll)
        {
            _node.RequestPoll();
        }
    }

    /// <summary>Hands the messages of flows to this server to the handler, in order (a send to oneself, or to a key whose root is here).</summary>
    private void DeliverLocally()
    {
        _localPosted = false;
        for (var i = 0; i < _active.Count; i++)
        {
            var flow = _active[i];
            FollowRoot(flow);

            if (flow.Server != _node.Self || flow.InFlight != 0)
            {
                continue;
            }

            while (!_stopped && flow.TryTakeWaiting(out var message))
            {
                _queuedMessages--;
                Deliver(new ReliableMessage(_node.Self, flow.FlowId, flow.Key, message.Body.Span));
                message.Complete();
                flow.Carried = true;
            }

            if (flow.MessageCount == 0)
            {
                flow.Listed = false;
                flow.LastProgress = _node.TimeProvider.GetTimestamp();
                _active.RemoveAt(i--);
                ScheduleTimer(flow.LastProgress + (_receiveIdleTicks / 2));
            }
        }
    }

    /// <summary>
    /// A flow to a key with no message begun (the next one begins now) that has carried messages to
    /// its server goes on to the key's root in this server's view, if that changed: under a new id, so
    /// the new root checks it is the root at the flow's first packet. Earlier messages are all
    /// acknowledged, so order holds. A flow that has carried nothing yet went where this view or a
    /// NotRoot answer named, and stays (so that two views that differ do not send it back and forth).
    /// </summary>
    private void FollowRoot(SendFlow flow)
    {
        if (flow.Key is { } key && !flow.HasBegun && flow.InFlight == 0 && flow.Carried && _node.GetRoot(key) is var root && root != flow.Server)
        {
            MoveFlow(flow, root, unsure: null);
        }
    }
}
