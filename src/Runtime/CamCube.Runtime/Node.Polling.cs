using CamCube.Packets;
using CamCube.Runtime.Upcalls;
using CamCube.Services;

namespace CamCube.Runtime;

/// <content>
/// Link scheduling (camcubeos 3.3, symbiotic-routing 2.1.1): whenever a link has room, the node
/// polls services in turn for a packet for it. Control services come first; data services share
/// the link by stride scheduling (start-time fair queuing), each in proportion to its weight.
/// </content>
public sealed partial class Node
{
    internal void PumpLinks(byte links)
    {
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            if ((links & (1 << d)) != 0)
            {
                Pump((LinkDirection)d);
            }
        }
    }

    /// <summary>
    /// Pumps the links a packet just queued for may leave on, stopping once it has left: the other
    /// links had room already, so nothing else was waiting for them.
    /// </summary>
    internal void PumpUntilTaken(Packet packet, byte links)
    {
        var ticket = packet.QueueTicket;
        for (var d = 0; d < LinkDirections.Count && packet.QueueTicket == ticket; d++)
        {
            if ((links & (1 << d)) != 0)
            {
                Pump((LinkDirection)d);
            }
        }
    }

    /// <summary>
    /// Sends a packet on the first of <paramref name="links"/> with room, as the pump would, when
    /// nothing else could be polled before it: the packet's service is the node's only data service
    /// and does not make packets in its poll, its queue is empty, no control service has a packet
    /// pending for the link and no pump of it is under way. The stride pass moves as if polled.
    /// Returns false, with the packet still the caller's, when that does not hold or no link has room.
    /// </summary>
    private bool TrySendAtOnce(ServiceSlot slot, Packet packet, byte links)
    {
        if (!_running || !ReferenceEquals(_atOnceSlot, slot) || _controlQueued > 0)
        {
            return false;
        }

        for (var d = 0; d < LinkDirections.Count; d++)
        {
            if ((links & (1 << d)) == 0)
            {
                continue;
            }

            var link = (LinkDirection)d;
            if (((_pumpingLinks | _controlPendingLinks) & (1 << d)) != 0)
            {
                return false;
            }

            if (!_transport.HasRoom(link))
            {
                continue;
            }

            var pass = Math.Max(slot.Pass[d], _virtualTime[d]);
            var length = packet.Length;
            SetPumping(d, true);
            try
            {
                if (!_transport.TrySend(link, packet))
                {
                    return false;
                }
            }
            finally
            {
                SetPumping(d, false);
            }

            _virtualTime[d] = pass;
            slot.Pass[d] = pass + slot.Stride;
            CountSent(d, slot, length);
            return true;
        }

        return false;
    }

    private void CountSent(int d, ServiceSlot slot, int length)
    {
        CountOnLink(d, LinkCounters.PacketsSentIndex, length);
        slot.Counters.PacketsSent++;
        slot.Counters.BytesSent += length;
    }

    /// <summary>Polls services for <paramref name="link"/> while it has room and someone has a packet for it.</summary>
    internal void Pump(LinkDirection link)
    {
        var d = (int)link;
        if (!_running || IsPumping(d) || (_existingLinks & (1 << d)) == 0)
        {
            return;
        }

        SetPumping(d, true);
        try
        {
            while (_running && _transport.HasRoom(link))
            {
                var packet = PollOnce(link, out var slot);
                if (packet is null)
                {
                    break;
                }

                var length = packet.Length;
                if (!_transport.TrySend(link, packet))
                {
                    DropWithLog(packet, DropReason.NoRoute, $"transport refused a frame on {link.ToShortName()} although it reported room");
                    break;
                }

                CountSent(d, slot!, length);
            }

            if (_roomRequests is { } requests && _running && WantsRoom(d))
            {
                requests.RequestRoom(link);
            }
        }
        finally
        {
            SetPumping(d, false);
        }
    }

    /// <summary>
    /// Gets whether a poll of link <paramref name="d"/> might find a packet: a control service has
    /// one waiting, a service polls for its own, or a send queue holds one for the link. A transport
    /// with room on request is asked for room only then.
    /// </summary>
    private bool WantsRoom(int d)
    {
        if (_pollingDataSlots > 0 || (_controlPendingLinks & (1 << d)) != 0)
        {
            return true;
        }

        // The control services are liveness and link state, asked above; their queues stay empty but are checked like any other.
        var link = (LinkDirection)d;
        for (var i = 0; i < _controlSlots.Count; i++)
        {
            var queue = _controlSlots[i].Queue;
            if (queue.Count > 0 && queue.MayHaveFor(link))
            {
                return true;
            }
        }

        for (var i = 0; i < _dataSlots.Count; i++)
        {
            var slot = _dataSlots[i];
            if (slot.Router is not null || (slot.Queue.Count > 0 && slot.Queue.MayHaveFor(link)))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Gets whether the service's own poll may hand out a packet for link <paramref name="d"/> (else only its queue can).</summary>
    private static bool MayPoll(ServiceSlot slot, int d) => slot.Control is { } control ? control.HasPending(d) : slot.Polls;

    private Packet? PollOnce(LinkDirection link, out ServiceSlot? from)
    {
        foreach (var slot in _controlSlots)
        {
            var packet = PollSlot(slot, link);
            if (packet is not null)
            {
                from = slot;
                return packet;
            }
        }

        // Stride scheduling: ask services in order of their pass (never below the link's virtual
        // time, so an idle service earns no credit); the first with a packet wins and pays a stride.
        var d = (int)link;
        var count = _dataSlots.Count;
        if (count == 1)
        {
            // One data service: it is the one asked, at its pass (the loop below would do the same).
            var only = _dataSlots[0];
            var onlyPass = Math.Max(only.Pass[d], _virtualTime[d]);
            var taken = PollSlot(only, link);
            if (taken is not null)
            {
                _virtualTime[d] = onlyPass;
                only.Pass[d] = onlyPass + only.Stride;
            }

            from = taken is null ? null : only;
            return taken;
        }

        Span<bool> asked = count <= 64 ? stackalloc bool[count] : new bool[count];
        for (var round = 0; round < count; round++)
        {
            var best = -1;
            long bestPass = long.MaxValue;
            for (var i = 0; i < count; i++)
            {
                if (asked[i])
                {
                    continue;
                }

                var pass = Math.Max(_dataSlots[i].Pass[d], _virtualTime[d]);
                if (pass < bestPass)
                {
                    bestPass = pass;
                    best = i;
                }
            }

            asked[best] = true;
            var slot = _dataSlots[best];
            var packet = PollSlot(slot, link);
            if (packet is not null)
            {
                _virtualTime[d] = bestPass;
                slot.Pass[d] = bestPass + slot.Stride;
                from = slot;
                return packet;
            }
        }

        from = null;
        return null;
    }

    private Packet? PollSlot(ServiceSlot slot, LinkDirection link)
    {
        Packet? packet = null;
        if (MayPoll(slot, (int)link))
        {
            TryUpcall<PollUpcall, Packet?>(slot, new PollUpcall(link), null, out packet);
        }

        // A service that does not poll (a ServiceBase that keeps the base Poll, or a control service with nothing pending) would return null.
        if (packet is null && slot.Queue.Count > 0)
        {
            packet = slot.Queue.TryTake(link);
            CountControlQueued(slot);
        }

        return packet;
    }
}
