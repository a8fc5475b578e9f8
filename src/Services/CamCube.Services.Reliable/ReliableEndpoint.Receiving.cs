using System.Buffers;
using CamCube.Packets;

namespace CamCube.Services.Reliable;

/// <content>Receiving: packets are consumed in sequence order per flow, reassembled, and acknowledged.</content>
public sealed partial class ReliableEndpoint
{
    private long _assemblyBytes;

    /// <summary>Gets the bytes of messages being reassembled now, over all flows (at most <see cref="ReliableOptions.ReassemblyBytesMax"/>).</summary>
    public long ReassemblingBytes => _assemblyBytes;

    /// <summary>Gets how many receive flows this endpoint keeps, open or ended (for tests).</summary>
    internal int ReceiveFlowCount => _receiveFlows.Count;

    /// <summary>
    /// Takes one of the endpoint's packets delivered to the owner (<see cref="IsEndpointPacket"/> is
    /// true): data is acknowledged and, once in order, reassembled and handed to the handler;
    /// acknowledgements move the sender's window. Call from the owner's <see cref="IService.OnDeliver"/>
    /// and return what this returns.
    /// </summary>
    /// <returns>True if the endpoint keeps the packet (it arrived ahead of order); false lets the node release it.</returns>
    public bool OnDeliver(Packet packet)
    {
        ArgumentNullException.ThrowIfNull(packet);
        var payload = packet.Payload;
        if (_stopped || !IsEndpointPacket(payload))
        {
            return false;
        }

        switch ((ReliablePacketKind)payload[ReliableWire.KindOffset])
        {
            case ReliablePacketKind.Data:
                return OnData(packet);
            case ReliablePacketKind.Ack:
                OnAck(packet.Source, payload);
                return false;
            case ReliablePacketKind.NotRoot:
                OnNotRoot(packet.Source, payload);
                return false;
            case ReliablePacketKind.Reset:
                OnReset(packet.Source, payload);
                return false;
            case ReliablePacketKind.Refused:
                OnRefused(packet.Source, payload);
                return false;
            case ReliablePacketKind.Request:
                OnExchangeRequest(packet);
                return false;
            case ReliablePacketKind.Reply:
            case ReliablePacketKind.Busy:
                OnExchangeAnswer(packet, busy: payload[ReliableWire.KindOffset] == (byte)ReliablePacketKind.Busy);
                return false;
            default:
                return false;
        }
    }

    private bool OnData(Packet packet)
    {
        var payload = packet.Payload;
        if (payload.Length < ReliableWire.DataHeaderBytes)
        {
            return false;
        }

        var source = packet.Source;
        var flowId = ReliableWire.FlowId(payload);
        var sequence = ReliableWire.Sequence(payload);
        var now = _node.TimeProvider.GetTimestamp();
        if (!_receiveFlows.TryGetValue((source, flowId), out var flow))
        {
            flow = TryOpenReceiveFlow(source, flowId, sequence, payload, now);
            if (flow is null)
            {
                return false;
            }
        }

        flow.LastHeard = now;
        if (flow.Refused)
        {
            // The flow was refused and ended: a late or duplicated packet of it must not open it again.
            SendControl(source, ReliablePacketKind.Refused, flowId, flow.Expected, default, RefusalFlags(flow));
            return false;
        }

        if (flow.NotRoot)
        {
            // Its sender moved the flow to the root when it heard: a copy taken here, even now that this
            // server may be the root, would deliver its message at two roots.
            SendControl(source, ReliablePacketKind.NotRoot, flowId, sequence, _node.GetRoot(flow.Key!.Value));
            return false;
        }

        var offset = flow.Offset(sequence);
        var kept = false;
        if (offset == 0)
        {
            var next = packet;
            while (next is not null)
            {
                Consume(flow, next.Payload);
                if (!ReferenceEquals(next, packet))
                {
                    next.Release();
                }

                next = flow.Refused ? null : flow.Advance();
                _heldPackets -= next is null ? 0 : 1;
            }
        }
        else if (flow.InWindow(offset))
        {
            if (_heldPackets >= _options.HeldPacketsMax)
            {
                // Not held: the acknowledgement leaves it out, so its sender sends it again.
                PacketsNotHeld++;
            }
            else
            {
                kept = flow.TryHold(sequence, packet);
                DuplicatePackets += kept ? 0 : 1;
                _heldPackets += kept ? 1 : 0;
            }
        }
        else
        {
            // Below the window: received already, its acknowledgement lost. Beyond it: the sender cannot have sent it.
            DuplicatePackets += offset < 0 ? 1 : 0;
        }

        if (flow.Refused)
        {
            // A message the receiver has no memory for: the flow's packets are dropped, and its sender told why.
            // Its entry stays, holding nothing, until it is idle, so that a later copy of its first packet
            // (its first unacknowledged still 0) cannot open it afresh and deliver its first messages again.
            // The refusal names the refused message's first packet: every one below it arrived.
            SendControl(source, ReliablePacketKind.Refused, flowId, flow.Expected, default, RefusalFlags(flow));
            ForgetReceiveFlow(flow);
            return kept;
        }

        SendAck(flow, sequence);
        return kept;
    }

    /// <summary>
    /// Opens the state of a flow heard of for the first time, or answers why not: a flow past its
    /// start gets a Reset (this endpoint forgot it or restarted), a flow to a key this server is not
    /// the root of gets a NotRoot naming the root, and is remembered as turned away until it is idle
    /// (a later copy of its first packet is turned away too, even once this server is the root).
    /// </summary>
    private ReceiveFlow? TryOpenReceiveFlow(Coordinate source, ulong flowId, uint sequence, ReadOnlySpan<byte> payload, long now)
    {
        if (ReliableWire.UInt32(payload, ReliableWire.FirstUnackedOffset) != 0)
        {
            SendControl(source, ReliablePacketKind.Reset, flowId, sequence, default);
            return null;
        }

        KeyCoordinate? key = null;
        if ((payload[ReliableWire.FlagsOffset] & ReliableWire.KeyFlowFlag) != 0)
        {
            key = KeyCoordinate.Read(payload[ReliableWire.KeyOffset..]);
            if (!_node.Shape.Contains(key.Value.Home))
            {
                // A key no server of this cube can be the root of (a sender that broke the format).
                return null;
            }

            var root = _node.GetRoot(key.Value);
            if (root != _node.Self)
            {
                SendControl(source, ReliablePacketKind.NotRoot, flowId, sequence, root);
                OpenReceiveFlow(source, flowId, key, now).NotRoot = true;
                return null;
            }
        }

        return OpenReceiveFlow(source, flowId, key, now);
    }

    private ReceiveFlow OpenReceiveFlow(Coordinate source, ulong flowId, KeyCoordinate? key, long now)
    {
        var flow = _freeReceiveFlows.Count > 0 ? _freeReceiveFlows.Pop() : new ReceiveFlow(_options.WindowPacketsMax);
        flow.Reset(source, flowId, key, now);
        _receiveFlows.Add((source, flowId), flow);
        if (_receiveFlows.Count == 1)
        {
            ScheduleTimer(now + _receiveIdleTicks);
        }

        return flow;
    }

    /// <summary>Adds the next in-order fragment to the message being reassembled, and delivers it when whole.</summary>
    private void Consume(ReceiveFlow flow, ReadOnlySpan<byte> payload)
    {
        var length = (int)Math.Min(ReliableWire.UInt32(payload, ReliableWire.MessageLengthOffset), int.MaxValue);
        var offset = (int)Math.Min(ReliableWire.UInt32(payload, ReliableWire.FragmentOffsetOffset), int.MaxValue);
        var fragment = payload[ReliableWire.DataHeaderBytes..];
        if (offset == 0)
        {
            ReturnAssembly(flow);
            if (length > _options.MessageBytesMax)
            {
                // Refused, as for want of memory: a message dropped here would be acknowledged, and its send would complete.
                Log.MessageOverLimit(_node.Logger, flow.FlowId, flow.Source, length, _options.MessageBytesMax);
                flow.AssemblyLength = -1;
                flow.Refused = true;
                flow.RefusedTooLarge = true;
                return;
            }

            if (length > fragment.Length && _assemblyBytes + length > _options.ReassemblyBytesMax)
            {
                Log.ReassemblyFull(_node.Logger, flow.FlowId, flow.Source, length, _assemblyBytes, _options.ReassemblyBytesMax);
                flow.AssemblyLength = -1;
                flow.Refused = true;
                return;
            }

            flow.AssemblyLength = length;
            flow.AssembledBytes = 0;
            flow.Assembly = length > fragment.Length ? ArrayPool<byte>.Shared.Rent(length) : null;
            _assemblyBytes += flow.Assembly is null ? 0 : length;
        }

        if (flow.AssemblyLength != length || flow.AssembledBytes != offset || offset + fragment.Length > length || (offset != 0 && flow.Assembly is null))
        {
            // A fragment that does not follow the one before (a sender that broke the format) drops the message;
            // so does one past the start of a message not under way (after the end of one already whole).
            ReturnAssembly(flow);
            flow.AssemblyLength = -1;
            return;
        }

        if (flow.Assembly is null)
        {
            // The whole message in one fragment: delivered straight from the packet.
            flow.AssemblyLength = 0;
            Deliver(new ReliableMessage(flow.Source, flow.FlowId, flow.Key, fragment));
            return;
        }

        fragment.CopyTo(flow.Assembly.AsSpan(offset));
        flow.AssembledBytes += fragment.Length;
        if (flow.AssembledBytes == length)
        {
            var assembly = flow.Assembly;
            flow.Assembly = null;
            _assemblyBytes -= length;
            Deliver(new ReliableMessage(flow.Source, flow.FlowId, flow.Key, assembly.AsSpan(0, length)));
            ArrayPool<byte>.Shared.Return(assembly);
        }
    }

    private void Deliver(in ReliableMessage message)
    {
        DeliveredMessages++;
        try
        {
            _handler(message);
        }
#pragma warning disable CA1031 // A handler's fault must not break the flow: the message counts as delivered and the fault is logged.
        catch (Exception e)
#pragma warning restore CA1031
        {
            Log.HandlerFault(_node.Logger, e, message.Source, message.FlowId);
        }
    }

    private void ReturnAssembly(ReceiveFlow flow)
    {
        if (flow.Assembly is { } assembly)
        {
            flow.Assembly = null;
            _assemblyBytes -= flow.AssemblyLength;
            ArrayPool<byte>.Shared.Return(assembly);
        }
    }

    private void SendAck(ReceiveFlow flow, uint trigger)
    {
        var packet = _node.CreatePacket();
        var payload = packet.PayloadArea;
        ReliableWire.WritePrefix(payload, _tag, ReliablePacketKind.Ack, 0, flow.FlowId, trigger);
        ReliableWire.UInt32(payload, ReliableWire.CumulativeOffset, flow.Expected);
        Span<uint> blocks = stackalloc uint[ReliableWire.SackBlocksMax * 2];
        var count = flow.WriteSackBlocks(blocks);
        payload[ReliableWire.SackCountOffset] = (byte)count;
        payload[ReliableWire.SackCountOffset + 1] = 0;
        payload[ReliableWire.SackCountOffset + 2] = 0;
        payload[ReliableWire.SackCountOffset + 3] = 0;
        for (var i = 0; i < count * 2; i++)
        {
            ReliableWire.UInt32(payload, ReliableWire.AckBlocksOffset + (i * 4), blocks[i]);
        }

        packet.PayloadLength = ReliableWire.AckBlocksOffset + (count * 8);
        _node.RouteToServer(packet, flow.Source);
    }

    private static byte RefusalFlags(ReceiveFlow flow) => flow.RefusedTooLarge ? ReliableWire.TooLargeFlag : (byte)0;

    private void SendControl(Coordinate destination, ReliablePacketKind kind, ulong flowId, uint sequence, Coordinate root, byte flags = 0)
    {
        var packet = _node.CreatePacket();
        var payload = packet.PayloadArea;
        ReliableWire.WritePrefix(payload, _tag, kind, flags, flowId, sequence);
        ReliableWire.WriteCoordinate(payload, ReliableWire.RootOffset, root);
        packet.PayloadLength = ReliableWire.NotRootBytes;
        _node.RouteToServer(packet, destination);
    }

    /// <summary>Forgets receive flows silent for <see cref="ReliableOptions.ReceiveFlowIdleTimeout"/>; returns when the next one would be, or <see cref="long.MaxValue"/>.</summary>
    private long EvictIdleReceiveFlows(long now)
    {
        var next = long.MaxValue;
        List<ReceiveFlow>? idle = null;
        foreach (var flow in _receiveFlows.Values)
        {
            var end = flow.LastHeard + _receiveIdleTicks;
            if (end <= now)
            {
                (idle ??= []).Add(flow);
            }
            else
            {
                next = Math.Min(next, end);
            }
        }

        if (idle is not null)
        {
            foreach (var flow in idle)
            {
                _receiveFlows.Remove((flow.Source, flow.FlowId));
                ForgetReceiveFlow(flow);
                _freeReceiveFlows.Push(flow);
            }
        }

        return next;
    }

    private void ForgetReceiveFlow(ReceiveFlow flow)
    {
        _heldPackets -= flow.HeldCount;
        flow.ReleaseHeld();
        ReturnAssembly(flow);
    }
}
