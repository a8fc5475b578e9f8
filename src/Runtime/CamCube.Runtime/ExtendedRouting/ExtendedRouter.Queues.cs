using System.Runtime.CompilerServices;
using CamCube.Packets;
using CamCube.Services;

namespace CamCube.Runtime.ExtendedRouting;

/// <content>Queuing and polling: where a packet may leave, and which queue's packet leaves next.</content>
internal sealed partial class ExtendedRouter
{
    /// <summary>Queues a packet towards K, or delivers it here again if an entry of K maps to this server.</summary>
    private RouteStatus Enqueue(Packet packet, ReadOnlySpan<KeyCoordinate> targets)
    {
        // Each entry's shortest-path links are resolved once per hop, straight into the target set
        // the packet will carry (no scratch spans to clear); a set not used goes back to the pool.
        // Most packets leave in the pump that queues them: while none is pending, the router's own
        // pending set serves, and a pooled set is attached only to a packet that stays queued.
        var set = _pending is null ? _pendingSet : RentSet();
        var linksPerTarget = set.Links;
        var setTargets = set.Targets;
        byte links = 0;
        var routes = _node.Routes;
        var keySpace = _node.KeySpace;
        var shape = _node.Shape;
        var self = _node.Self;
        var failureFree = routes.IsFailureFree;
        for (var i = 0; i < targets.Length; i++)
        {
            setTargets[i] = targets[i];
            var home = targets[i].Home;
            if (!shape.Contains(home))
            {
                // F computed it from the packet's bytes, which a hostile sender chose.
                ReleaseSet(set);
                _node.DropWithLog(packet, DropReason.Malformed, $"{_slot.Service.Name} routed to {targets[i]}, outside the torus {shape}");
                return RouteStatus.DroppedInvalid;
            }

            if (failureFree && home != self)
            {
                // Without failures every root is the home: checked once above, not per entry.
                linksPerTarget[i] = routes.FailureFreeNextHops(home);
                links |= linksPerTarget[i];
                continue;
            }

            linksPerTarget[i] = 0;

            // Through the routing table's root cache: the same coordinates come up hop after hop.
            if (!routes.TryGetRoot(keySpace, targets[i], out var root))
            {
                continue;
            }

            if (root == _node.Self)
            {
                // This server is responsible for the entry: the packet arrives here again (from
                // the loop, not this call), the service inspects it and F is asked for that coordinate.
                ReleaseSet(set);
                return DeliverHereAgain(packet, targets[i]);
            }

            linksPerTarget[i] = routes.NextHops(root);
            links |= linksPerTarget[i];
        }

        if (packet.HopLimit == 0)
        {
            ReleaseSet(set);
            _node.DropRouted(_slot, packet, DropReason.HopLimitExceeded, $"packet of {_slot.Service.Name} from {packet.Source} after {packet.HopCount} hops");
            return RouteStatus.DroppedInvalid;
        }

        // Never back out of the link the packet came in on: if every shortest path does, take the
        // detour through the neighbour closest to the target among the other links.
        var excluded = packet.ArrivalLink is { } arrival ? (byte)(1 << (int)arrival) : (byte)0;
        links &= (byte)(_node.UpLinks & ~excluded);
        if (links == 0 && excluded != 0)
        {
            for (var i = 0; i < targets.Length; i++)
            {
                // Rare: the roots are looked up again (from the cache) rather than kept for every packet.
                linksPerTarget[i] = routes.TryGetRoot(keySpace, targets[i], out var root) ? (byte)(routes.DetourHops(root, excluded) & _node.UpLinks) : (byte)0;
                links |= linksPerTarget[i];
            }
        }

        var status = Queue(packet, set, targets.Length, links);
        if (status != RouteStatus.Queued)
        {
            ReleaseSet(set);
        }

        return status;
    }

    /// <summary>Puts a packet whose targets and links are in <paramref name="set"/> in the queue <c>classify</c> picks, and pumps.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private RouteStatus Queue(Packet packet, TargetSet set, int count, byte links)
    {
        if (links == 0)
        {
            _node.DropRouted(_slot, packet, DropReason.NoRoute);
            return RouteStatus.DroppedUnreachable;
        }

        var queue = Classify(packet);
        if (queue is null)
        {
            _node.DropWithLog(packet, DropReason.RoutingFunctionFault, $"{_slot.Service.Name}'s classify threw or returned a queue that was never added");
            return RouteStatus.DroppedInvalid;
        }

        if (queue.Packets.IsFull)
        {
            _node.DropQuietly(packet, DropReason.QueueFull);
            return RouteStatus.DroppedQueueFull;
        }

        set.Count = count;
        if (set == _pendingSet)
        {
            _pending = packet;
        }
        else
        {
            packet.Attachment = set;
        }

        // Most packets leave in the pump below, before they could age: the clock is read only for
        // a packet that stays queued (a taken packet has a new ticket, and may already be reused).
        packet.QueuedTimestamp = NotStamped;
        queue.Packets.Enqueue(packet, links);
        var ticket = packet.QueueTicket;
        _node.PumpUntilTaken(packet, links);
        if (ReferenceEquals(_pending, packet))
        {
            // It stays queued: it takes a set of its own, freeing the pending one.
            var own = RentSet();
            _pendingSet.CopyTo(own);
            packet.Attachment = own;
            _pending = null;
        }

        if (packet.QueueTicket == ticket)
        {
            packet.QueuedTimestamp = _node.TimeProvider.GetTimestamp();
        }

        return RouteStatus.Queued;
    }

    private RouteStatus DeliverHereAgain(Packet packet, KeyCoordinate target)
    {
        if (packet.HopLimit == 0)
        {
            _node.DropRouted(_slot, packet, DropReason.HopLimitExceeded, $"{_slot.Service.Name}'s F kept returning coordinates of this server");
            return RouteStatus.DroppedInvalid;
        }

        packet.HopLimit--;
        packet.Destination = target;
        _node.Post(Node.WorkCode.LocalDeliver, _slot.Id, packet);
        return RouteStatus.DeliveredLocally;
    }

    // Only the default queue: nothing to choose, so classify is not asked (and no call is made).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private RouterQueue? Classify(Packet packet) => _onlyQueue ?? AskClassify(packet);

    private RouterQueue? AskClassify(Packet packet)
    {
        try
        {
            return FindQueue(_protocol.Classify(packet));
        }
#pragma warning disable CA1031 // A faulty classify loses its packet only.
        catch (Exception)
#pragma warning restore CA1031
        {
            return null;
        }
    }

    public Packet? Poll(LinkDirection link)
    {
        if (_onlyQueue is { } only)
        {
            // Most services have one queue: nothing to share, so no pass bookkeeping either (a
            // queue added later starts level with this one, as AddQueue copies the virtual time).
            return TakeLive(only, link);
        }

        var d = (int)link;
        var count = _queues.Count;
        Span<bool> asked = count <= 64 ? stackalloc bool[count] : new bool[count];
        for (var round = 0; round < count; round++)
        {
            var best = -1;
            var bestPass = long.MaxValue;
            for (var i = 0; i < count; i++)
            {
                var pass = Math.Max(_queues[i].Pass[d], _virtualTime[d]);
                if (!asked[i] && pass < bestPass)
                {
                    bestPass = pass;
                    best = i;
                }
            }

            asked[best] = true;
            var queue = _queues[best];
            var packet = TakeLive(queue, link);
            if (packet is not null)
            {
                _virtualTime[d] = bestPass;
                queue.Pass[d] = bestPass + queue.Stride;
                return packet;
            }
        }

        return null;
    }

    /// <summary>Takes the oldest packet of <paramref name="queue"/> for <paramref name="link"/>, dropping expired ones, and points it at its K entry.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private Packet? TakeLive(RouterQueue queue, LinkDirection link)
    {
        if (queue.Packets.Count == 0)
        {
            // The node polls every service again after each packet it sends: an empty queue
            // answers without reading the clock.
            return null;
        }

        long? now = null;
        while (queue.Packets.TryTake(link) is { } packet)
        {
            var set = DetachSet(packet);
            if (packet.QueuedTimestamp != NotStamped &&
                (now ??= _node.TimeProvider.GetTimestamp()) - packet.QueuedTimestamp > queue.QueueTimeMaxTicks)
            {
                ReleaseSet(set);
                _node.DropRouted(_slot, packet, DropReason.Expired);
                continue;
            }

            packet.Destination = set.Count == 1 ? set.Targets[0] : ChooseTarget(set, link);
            ReleaseSet(set);
            return packet;
        }

        return null;
    }

    /// <summary>Picks, at random among several, an entry of K whose shortest path goes through <paramref name="link"/> (K has more than one entry).</summary>
    private KeyCoordinate ChooseTarget(TargetSet set, LinkDirection link)
    {
        var bit = 1 << (int)link;
        var matches = 0;
        var chosen = set.Targets[0];
        for (var i = 0; i < set.Count; i++)
        {
            // Reservoir sampling: each matching entry is kept with probability 1/matches (the
            // first always, without drawing).
            if ((set.Links[i] & bit) != 0 && (++matches == 1 || _node.Random.Next(matches) == 0))
            {
                chosen = set.Targets[i];
            }
        }

        return chosen;
    }

    /// <summary>A link went down: packets that could only leave on it are re-queued for their K, or dropped.</summary>
    internal void RemoveLink(LinkDirection link)
    {
        foreach (var queue in _queues)
        {
            _orphans.Clear();
            queue.Packets.RemoveLink(link, _orphans);
            foreach (var packet in _orphans.ToArray())
            {
                var set = DetachSet(packet);
                set.AsSpan().CopyTo(_scratch);
                var count = set.Count;
                ReleaseSet(set);
                Enqueue(packet, _scratch.AsSpan(0, count));
            }
        }

        _orphans.Clear();
    }

    /// <summary>Releases every queued packet (the service left or the node stopped).</summary>
    internal void ReleaseAll(DropReason reason)
    {
        foreach (var queue in _queues)
        {
            Release(queue, reason);
        }
    }

    /// <summary>Releases every packet waiting in <paramref name="queue"/>, counted under <paramref name="reason"/>.</summary>
    private void Release(RouterQueue queue, DropReason reason)
    {
        _orphans.Clear();
        queue.Packets.DrainAll(_orphans);
        foreach (var packet in _orphans)
        {
            ReleaseSet(DetachSet(packet));
            _node.DropQuietly(packet, reason);
        }

        _orphans.Clear();
    }

    private TargetSet RentSet() => _freeTargets.Count > 0 ? _freeTargets.Pop() : new TargetSet(TargetsMax);

    /// <summary>Returns a set to the pool, unless it is the router's pending set.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void ReleaseSet(TargetSet set)
    {
        if (set != _pendingSet)
        {
            _freeTargets.Push(set);
        }
    }

    /// <summary>Takes the target set off a packet leaving the queue: its own, or the pending set if it is the pending packet.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private TargetSet DetachSet(Packet packet)
    {
        if (ReferenceEquals(packet, _pending))
        {
            _pending = null;
            return _pendingSet;
        }

        var set = (TargetSet)packet.Attachment!;
        packet.Attachment = null;
        return set;
    }

    private RouterQueue? FindQueue(int id)
    {
        foreach (var queue in _queues)
        {
            if (queue.Id == id)
            {
                return queue;
            }
        }

        return null;
    }
}
