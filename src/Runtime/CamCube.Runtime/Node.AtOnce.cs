using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace CamCube.Runtime;

/// <content>
/// What the send-at-once shortcut checks at every hop, kept in the node's own fields so that a hop
/// reads the node instead of the lists, slots, queues and control services behind it (each a cache
/// miss when a cube of nodes does not fit the cache).
/// </content>
public sealed partial class Node
{
    /// <summary>The counters of every link (<see cref="NodeCounters.LinkCounts"/>), without the two references in front of them.</summary>
    private readonly long[] _linkCounts;

    /// <summary>The node's only data service, if it makes no packets in its poll: the one slot whose packets may be sent at once.</summary>
    private ServiceSlot? _atOnceSlot;

    /// <summary>The links for which liveness or link state has a packet pending (bit i for direction i).</summary>
    private byte _controlPendingLinks;

    /// <summary>The links being pumped now (bit i for direction i).</summary>
    private byte _pumpingLinks;

    /// <summary>How many packets wait in the control services' send queues.</summary>
    private int _controlQueued;

    /// <summary>Liveness or link state changed what it has pending for link <paramref name="d"/>.</summary>
    internal void UpdateControlPending(int d)
    {
        var bit = (byte)(1 << d);
        var pending = _liveness.HasPending(d) || _linkState.HasPending(d);
        _controlPendingLinks = pending ? (byte)(_controlPendingLinks | bit) : (byte)(_controlPendingLinks & ~bit);
    }

    /// <summary>
    /// Counts a frame of <paramref name="length"/> bytes on link <paramref name="d"/>: the packets
    /// counter at <paramref name="packetsIndex"/> among the link's counters, and the bytes counter after it.
    /// </summary>
    private void CountOnLink(int d, int packetsIndex, int length)
    {
        if ((uint)d >= LinkDirections.Count)
        {
            return;
        }

        // Past the bounds check, which would read the array's header: one more cache miss per hop
        // when the link's counters are on another line.
        ref var packets = ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_linkCounts), (d * LinkCounters.CountersPerLink) + packetsIndex);
        packets++;
        Unsafe.Add(ref packets, 1) += length;
    }

    private bool IsPumping(int d) => (_pumpingLinks & (1 << d)) != 0;

    private void SetPumping(int d, bool pumping) =>
        _pumpingLinks = pumping ? (byte)(_pumpingLinks | (1 << d)) : (byte)(_pumpingLinks & ~(1 << d));

    private void UpdateAtOnceSlot() => _atOnceSlot = _pollingDataSlots == 0 && _dataSlots.Count == 1 ? _dataSlots[0] : null;

    /// <summary>A control service's send queue changed: counts what the control queues hold again.</summary>
    private void CountControlQueued(ServiceSlot slot)
    {
        if (!slot.IsControl)
        {
            return;
        }

        var queued = 0;
        for (var i = 0; i < _controlSlots.Count; i++)
        {
            queued += _controlSlots[i].Queue.Count;
        }

        _controlQueued = queued;
    }
}
