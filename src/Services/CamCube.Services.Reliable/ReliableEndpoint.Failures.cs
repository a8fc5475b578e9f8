namespace CamCube.Services.Reliable;

/// <content>Failures: unreachable peers, drop notices, a root that changed, a receiver that forgot a flow.</content>
public sealed partial class ReliableEndpoint
{
    /// <summary>
    /// A server became unreachable or reachable again: flows to an unreachable server fail with
    /// <see cref="ReliableFailure.PeerUnreachable"/>; flows to a key whose root it was move to the
    /// new root; idle flows to it are retired. Call from the owner's <see cref="IService.OnServerReachabilityChanged"/>.
    /// </summary>
    public void OnServerReachabilityChanged(Coordinate server, bool reachable)
    {
        // Its next life is no surprise now: requests no longer carry the life last heard (only a restart unseen is refused).
        _peerLives.Remove(server);
        if (_stopped || reachable)
        {
            return;
        }

        FailExchangesTo(server);

        List<SendFlow>? lost = null;
        foreach (var flow in _active)
        {
            if (flow.Server == server)
            {
                (lost ??= []).Add(flow);
            }
        }

        if (lost is not null)
        {
            foreach (var flow in lost)
            {
                PeerLost(flow, $"Server {server} became unreachable.");
            }
        }

        // An idle flow to it is retired: the server may come back with no memory of the flow (it
        // restarted), and the next message there must start a flow afresh rather than be reset.
        List<SendFlow>? idle = null;
        foreach (var flow in _flowsById.Values)
        {
            if (flow.Server == server && flow.MessageCount == 0)
            {
                (idle ??= []).Add(flow);
            }
        }

        if (idle is not null)
        {
            foreach (var flow in idle)
            {
                Retire(flow);
            }
        }
    }

    /// <summary>
    /// A drop notice for one of the owner's packets: if it was one of the endpoint's, a packet
    /// dropped as unreachable fails (or moves) its flow as <see cref="OnServerReachabilityChanged"/>
    /// does, and any other drop has it sent again at once. Call from the owner's <see cref="IDropObserver.OnDropped"/>.
    /// </summary>
    /// <returns>True if the notice was about one of the endpoint's packets.</returns>
    public bool OnDropped(in DroppedPacket drop)
    {
        var prefix = drop.PayloadPrefix;
        if (!IsEndpointPacket(prefix))
        {
            return false;
        }

        if (!_stopped && (ReliablePacketKind)prefix[ReliableWire.KindOffset] == ReliablePacketKind.Request)
        {
            OnRequestDropped(drop);
            return true;
        }

        if (_stopped || (ReliablePacketKind)prefix[ReliableWire.KindOffset] != ReliablePacketKind.Data
            || !_flowsById.TryGetValue(ReliableWire.FlowId(prefix), out var flow) || flow.MessageCount == 0)
        {
            return true;
        }

        if (drop.Reason == DropReason.Unreachable && drop.Destination.Home == flow.Server)
        {
            flow.MarkUndelivered(ReliableWire.Sequence(prefix));
            PeerLost(flow, $"Server {flow.Server} is unreachable (dropped at {drop.DroppedAt}).");
        }
        else
        {
            flow.MarkLost(ReliableWire.Sequence(prefix));
            _node.RequestPoll();
        }

        return true;
    }

    private void OnNotRoot(Coordinate source, ReadOnlySpan<byte> payload)
    {
        if (payload.Length >= ReliableWire.NotRootBytes && _openExchanges.TryGetValue(ReliableWire.FlowId(payload), out var exchange))
        {
            // The server asked refused the request for good, never handling it: it may go to the root.
            if (exchange.Peer == source && exchange.Attempts > 0 && exchange.Key is { } key)
            {
                NoteLife(source, payload);
                MoveExchange(exchange, RootNamedBy(source, payload, key), source);
            }

            return;
        }

        // Only a flow to a key that the server never accepted: nothing of it was delivered there.
        if (payload.Length < ReliableWire.NotRootBytes || !_flowsById.TryGetValue(ReliableWire.FlowId(payload), out var flow)
            || flow.Server != source || flow.Key is null || flow.FirstUnacked != 0 || flow.MessageCount == 0)
        {
            return;
        }

        MoveFlow(flow, RootNamedBy(source, payload, flow.Key.Value), unsure: null);
    }

    /// <summary>The root a NotRoot names, if it is another reachable server; else the root in this server's view.</summary>
    private Coordinate RootNamedBy(Coordinate source, ReadOnlySpan<byte> payload, KeyCoordinate key)
    {
        var hint = ReliableWire.ReadCoordinate(payload, ReliableWire.RootOffset);
        return hint != source && _node.Shape.Contains(hint) && _node.Reachability.IsReachable(hint) ? hint : _node.GetRoot(key);
    }

    private void OnReset(Coordinate source, ReadOnlySpan<byte> payload)
    {
        if (OnExchangeReset(source, payload))
        {
            return;
        }

        if (!_flowsById.TryGetValue(ReliableWire.FlowId(payload), out var flow) || flow.Server != source || flow.MessageCount == 0)
        {
            return;
        }

        PeerLost(flow, $"Server {source} lost the flow's state (it restarted).");
    }

    private void OnRefused(Coordinate source, ReadOnlySpan<byte> payload)
    {
        if (!_flowsById.TryGetValue(ReliableWire.FlowId(payload), out var flow) || flow.Server != source || flow.MessageCount == 0)
        {
            return;
        }

        // The refusal names the refused message's first packet: every packet below it arrived, so the
        // messages before it are delivered (their acknowledgement may not have come) and complete.
        var before = flow.MessageCount;
        flow.OnAck(_node.TimeProvider.GetTimestamp(), ReliableWire.Sequence(payload), unchecked(flow.FirstUnacked - 1), default);
        _queuedMessages -= before - flow.MessageCount;
        if ((payload[ReliableWire.FlagsOffset] & ReliableWire.TooLargeFlag) != 0)
        {
            FailFlow(flow, ReliableFailure.MessageTooLarge, $"Server {source} refused the message: it is longer than its limit of a message (MessageBytesMax).");
            return;
        }

        FailFlow(flow, ReliableFailure.ReceiverFull, $"Server {source} refused the message: the messages it reassembles already hold its limit of bytes (ReassemblyBytesMax).");
    }

    /// <summary>The flow's server is gone: a flow to a server fails; a flow to a key moves to the key's new root.</summary>
    private void PeerLost(SendFlow flow, string why)
    {
        if (flow.Key is not { } key)
        {
            FailFlow(flow, ReliableFailure.PeerUnreachable, why);
            return;
        }

        var unsure = new List<OutgoingMessage>();
        MoveFlow(flow, _node.GetRoot(key), unsure);
        _queuedMessages -= unsure.Count;
        foreach (var message in unsure)
        {
            message.Fail(ReliableFailure.OutcomeUnknown, $"{why} It may have had the whole message, so it is not sent to the key's new root.");
        }
    }

    /// <summary>
    /// Starts the flow again, under a new id, at <paramref name="root"/>. Messages the old server may
    /// have had whole go to <paramref name="unsure"/> (null when it is known to have accepted nothing).
    /// </summary>
    private void MoveFlow(SendFlow flow, Coordinate root, List<OutgoingMessage>? unsure)
    {
        _flowsById.Remove(flow.FlowId);
        flow.Restart(unsure);
        flow.FlowId = NextFlowId();
        flow.Server = root;
        flow.Probing = flow.Key is not null;
        flow.Carried = false;
        flow.LastProgress = _node.TimeProvider.GetTimestamp();
        _flowsById.Add(flow.FlowId, flow);
        if (flow.MessageCount > 0)
        {
            Activate(flow);
        }
    }

    /// <summary>Fails every message of the flow and retires it.</summary>
    private void FailFlow(SendFlow flow, ReliableFailure reason, string why)
    {
        var failed = new List<OutgoingMessage>();
        flow.TakeAll(failed);
        _queuedMessages -= failed.Count;
        Retire(flow);
        foreach (var message in failed)
        {
            message.Fail(reason, why);
        }
    }
}
