using CamCube.Packets;

namespace CamCube.Runtime;

/// <summary>
/// One service's queue of routed packets at a node (camcubeos 3.3). A packet waits here until a
/// link on a shortest path polls; it sits in the ring of every link it may leave on, and the first
/// of those links to poll takes it. Entries left behind in the other rings are recognised as stale
/// by their ticket and skipped. A packet queued while nothing else is waits outside the rings, as
/// most packets leave in the pump that queued them: it costs no ring entries until a second packet
/// joins it. Allocates nothing once its rings have grown.
/// </summary>
internal sealed class SendQueue
{
    // Tickets are unique in the whole process, not per queue: a stale ring entry can outlive the
    // packet's stay here, and the pooled packet may meanwhile sit in another queue (of another
    // service or node) under that queue's ticket; a per-queue counter could repeat it.
    private static long s_nextTicket;

    private readonly Ring[] _rings = new Ring[LinkDirections.Count];

    /// <summary>The only live packet, kept out of the rings; null when none is queued or it has company.</summary>
    private Packet? _solo;

    public SendQueue(int packetsMax)
    {
        PacketsMax = packetsMax;
        for (var i = 0; i < _rings.Length; i++)
        {
            _rings[i] = new Ring();
        }
    }

    public int PacketsMax { get; }

    public int Count { get; private set; }

    public bool IsFull => Count >= PacketsMax;

    /// <summary>Queues a packet for the links in <paramref name="links"/>. The caller checked <see cref="IsFull"/>.</summary>
    public void Enqueue(Packet packet, byte links)
    {
        var ticket = Interlocked.Increment(ref s_nextTicket);
        packet.QueueTicket = ticket;
        packet.EligibleLinks = links;
        if (Count == 0)
        {
            _solo = packet;
            Count = 1;
            return;
        }

        if (_solo is { } solo)
        {
            // The first packet gets company: from now on order is kept by the rings.
            _solo = null;
            PushToRings(solo, solo.QueueTicket, solo.EligibleLinks);
        }

        PushToRings(packet, ticket, links);
        Count++;
    }

    private void PushToRings(Packet packet, long ticket, byte links)
    {
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            if ((links & (1 << d)) != 0)
            {
                var ring = _rings[d];
                if (ring.Count >= 2 * PacketsMax)
                {
                    // Entries taken through another link linger here until this link polls.
                    ring.Compact();
                }

                ring.Push(packet, ticket);
            }
        }
    }

    /// <summary>
    /// Gets whether a packet may be waiting for <paramref name="link"/>: true if one is, and also
    /// while the link's ring holds entries of packets that left by another link (it drops them when polled).
    /// </summary>
    public bool MayHaveFor(LinkDirection link) =>
        (_solo is { } solo && (solo.EligibleLinks & (1 << (int)link)) != 0) || _rings[(int)link].Count > 0;

    /// <summary>Takes the oldest live packet that may leave on <paramref name="link"/>.</summary>
    public Packet? TryTake(LinkDirection link)
    {
        if (_solo is { } solo)
        {
            if ((solo.EligibleLinks & (1 << (int)link)) == 0)
            {
                return null;
            }

            return TakeSolo(solo);
        }

        var ring = _rings[(int)link];
        while (ring.TryPop(out var packet, out var ticket))
        {
            if (packet.QueueTicket == ticket)
            {
                packet.QueueTicket = 0;
                Count--;
                return packet;
            }
        }

        return null;
    }

    /// <summary>
    /// Removes <paramref name="link"/> from every packet queued for it. Packets that had no other
    /// link are taken out and handed to <paramref name="orphans"/>.
    /// </summary>
    public void RemoveLink(LinkDirection link, List<Packet> orphans)
    {
        var ring = _rings[(int)link];
        var bit = (byte)(1 << (int)link);
        if (_solo is { } solo && (solo.EligibleLinks & bit) != 0)
        {
            solo.EligibleLinks &= (byte)~bit;
            if (solo.EligibleLinks == 0)
            {
                orphans.Add(TakeSolo(solo));
            }
        }

        while (ring.TryPop(out var packet, out var ticket))
        {
            if (packet.QueueTicket != ticket)
            {
                continue;
            }

            packet.EligibleLinks &= (byte)~bit;
            if (packet.EligibleLinks == 0)
            {
                packet.QueueTicket = 0;
                Count--;
                orphans.Add(packet);
            }
        }
    }

    /// <summary>Takes every live packet out (for shutdown).</summary>
    public void DrainAll(List<Packet> into)
    {
        if (_solo is { } solo)
        {
            into.Add(TakeSolo(solo));
        }

        foreach (var ring in _rings)
        {
            while (ring.TryPop(out var packet, out var ticket))
            {
                if (packet.QueueTicket == ticket)
                {
                    packet.QueueTicket = 0;
                    Count--;
                    into.Add(packet);
                }
            }
        }
    }

    private Packet TakeSolo(Packet solo)
    {
        _solo = null;
        solo.QueueTicket = 0;
        Count--;
        return solo;
    }

    /// <summary>A FIFO of (packet, ticket) whose capacity is a power of two, so positions wrap with a mask, not a division.</summary>
    private sealed class Ring
    {
        private (Packet Packet, long Ticket)[] _items = new (Packet, long)[16];
        private int _head;

        public int Count { get; private set; }

        public void Push(Packet packet, long ticket)
        {
            if (Count == _items.Length)
            {
                // Entries of packets that left by another link may be what fills the ring: drop
                // them before growing, and grow only if more than half of it is still live.
                Compact();
                if (Count > _items.Length / 2)
                {
                    Grow();
                }
            }

            _items[(_head + Count) & (_items.Length - 1)] = (packet, ticket);
            Count++;
        }

        public bool TryPop(out Packet packet, out long ticket)
        {
            if (Count == 0)
            {
                packet = null!;
                ticket = 0;
                return false;
            }

            (packet, ticket) = _items[_head];
            _items[_head] = default;
            _head = (_head + 1) & (_items.Length - 1);
            Count--;
            return true;
        }

        /// <summary>Drops stale entries in place, keeping the live ones in order; allocates nothing.</summary>
        public void Compact()
        {
            var kept = 0;
            for (var i = 0; i < Count; i++)
            {
                var entry = _items[(_head + i) & (_items.Length - 1)];
                if (entry.Packet.QueueTicket == entry.Ticket)
                {
                    _items[(_head + kept) & (_items.Length - 1)] = entry;
                    kept++;
                }
            }

            for (var i = kept; i < Count; i++)
            {
                _items[(_head + i) & (_items.Length - 1)] = default;
            }

            Count = kept;
        }

        private void Grow()
        {
            var items = new (Packet, long)[_items.Length * 2];
            for (var i = 0; i < Count; i++)
            {
                items[i] = _items[(_head + i) & (_items.Length - 1)];
            }

            _items = items;
            _head = 0;
        }
    }
}
