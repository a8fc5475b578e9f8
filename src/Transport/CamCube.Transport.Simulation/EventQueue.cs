using System.Runtime.CompilerServices;
using CamCube.Packets;

namespace CamCube.Transport.Simulation;

/// <summary>
/// The engine's pending events: a 4-ary min-heap ordered by (due time, insertion sequence).
/// </summary>
/// <remarks>
/// Heap entries hold only numbers (due time, sequence and the index of a slot); the events
/// themselves, with their references, stay put in a slot table. So sifting moves plain 24-byte
/// values, with no garbage-collector write barrier per move, and a 4-ary heap halves the depth
/// of a binary one: fewer cache lines touched per event. Sequences are unique, so the order is
/// total and a run replays exactly. Grows by doubling; allocates nothing once grown.
/// </remarks>
internal sealed class EventQueue
{
    private const int Arity = 4;

    private HeapEntry[] _heap;
    private SimulationEvent[] _slots;
    private int[] _freeSlots;
    private int _freeCount;
    private int _slotsUsed;

    /// <summary>Creates a queue with room for <paramref name="initialCapacity"/> events before it grows.</summary>
    public EventQueue(int initialCapacity)
    {
        var capacity = Math.Max(16, initialCapacity);
        _heap = new HeapEntry[capacity];
        _slots = new SimulationEvent[capacity];
        _freeSlots = new int[capacity];
    }

    /// <summary>Gets how many events are queued.</summary>
    public int Count { get; private set; }

    /// <summary>Queues <paramref name="item"/> due at <paramref name="dueNanoseconds"/>, ordered behind every queued event with a lower sequence at the same time.</summary>
    public int Enqueue(long dueNanoseconds, long sequence, in SimulationEvent item)
    {
        if (Count == _heap.Length)
        {
            Grow();
        }

        var slot = _freeCount > 0 ? _freeSlots[--_freeCount] : _slotsUsed++;
        _slots[slot] = item;
        SiftUp(Count++, new HeapEntry(dueNanoseconds, sequence, slot));
        return slot;
    }

    /// <summary>
    /// Cancels the pending event in <paramref name="slot"/> (returned by <see cref="Enqueue"/>; the
    /// caller knows it has not run yet): it stays in the heap but is dequeued as
    /// <see cref="SimulationEventCodes.Cancelled"/>. Returns the packet it held, for the caller to release.
    /// </summary>
    public Packet? Cancel(int slot)
    {
        ref var item = ref _slots[slot];
        var packet = item.Packet;
        item = new SimulationEvent(item.Target, SimulationEventCodes.Cancelled, 0, null);
        return packet;
    }

    /// <summary>Gets the due time of the first event; false if the queue is empty.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryPeekDue(out long dueNanoseconds)
    {
        if (Count == 0)
        {
            dueNanoseconds = 0;
            return false;
        }

        dueNanoseconds = _heap[0].Due;
        return true;
    }

    /// <summary>Takes the first event out. The caller checked that the queue is not empty.</summary>
    public SimulationEvent Dequeue(out long dueNanoseconds, out long sequence)
    {
        var heap = _heap;
        var first = heap[0];
        dueNanoseconds = first.Due;
        sequence = first.Sequence;
        var item = _slots[first.Slot];
        _slots[first.Slot] = default;
        _freeSlots[_freeCount++] = first.Slot;
        var last = --Count;
        if (last > 0)
        {
            SiftDown(heap[last], last);
        }

        return item;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool Before(in HeapEntry a, in HeapEntry b) =>
        a.Due < b.Due || (a.Due == b.Due && a.Sequence < b.Sequence);

    private void SiftUp(int index, HeapEntry entry)
    {
        var heap = _heap;
        while (index > 0)
        {
            var parent = (index - 1) / Arity;
            ref var above = ref heap[parent];
            if (!Before(entry, above))
            {
                break;
            }

            heap[index] = above;
            index = parent;
        }

        heap[index] = entry;
    }

    /// <summary>Places <paramref name="entry"/> (the old last entry) from the root down, within the first <paramref name="count"/> entries.</summary>
    private void SiftDown(HeapEntry entry, int count)
    {
        var heap = _heap;
        var index = 0;
        while (true)
        {
            var child = (index * Arity) + 1;
            if (child >= count)
            {
                break;
            }

            // The smallest of up to four children.
            var best = child;
            var end = Math.Min(child + Arity, count);
            for (var c = child + 1; c < end; c++)
            {
                if (Before(heap[c], heap[best]))
                {
                    best = c;
                }
            }

            if (!Before(heap[best], entry))
            {
                break;
            }

            heap[index] = heap[best];
            index = best;
        }

        heap[index] = entry;
    }

    private void Grow()
    {
        var capacity = _heap.Length * 2;
        Array.Resize(ref _heap, capacity);
        Array.Resize(ref _slots, capacity);
        Array.Resize(ref _freeSlots, capacity);
    }

    /// <summary>A heap entry: when the event is due, its insertion sequence, and where it is kept.</summary>
    private readonly record struct HeapEntry(long Due, long Sequence, int Slot);
}
