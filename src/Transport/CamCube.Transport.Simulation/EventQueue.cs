using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using CamCube.Packets;

namespace CamCube.Transport.Simulation;

/// <summary>
/// The engine's pending events, taken out in (due time, insertion sequence) order.
/// </summary>
/// <remarks>
/// <para>Two 4-ary min-heaps: events due within <see cref="NearWindowNanoseconds"/> of the last
/// event taken (frames on the wire, work posted now) go to a near heap, later ones (timers) to a
/// far heap, and the first event is the smaller of the two heaps' firsts. The order is exactly
/// that of one heap; only the cost changes: most events are near, and the near heap stays small,
/// where one heap would sift every near event past the hundreds of timers pending.</para>
/// <para>Heap entries hold only numbers (the due time, and the sequence and slot packed in one
/// word: 38 and 26 bits); the events themselves, with their references, stay put in a slot table.
/// So sifting moves plain 16-byte values, with no garbage-collector write barrier per move, and a
/// 4-ary heap halves the depth of a binary one. Sequences are unique, so the order is total and a
/// run replays exactly. Grows by doubling; allocates nothing once grown.</para>
/// </remarks>
internal sealed class EventQueue
{
    /// <summary>The default near window: longer than a jumbo frame's serialization and propagation, shorter than a millisecond timer.</summary>
    public const long DefaultNearWindowNanoseconds = 250_000;

    private const int Arity = 4;
    private const int SlotBits = 26;
    private const int SlotMask = (1 << SlotBits) - 1;
    private const ulong SequenceMax = (1UL << (64 - SlotBits)) - 1;

    private readonly Heap _near;
    private readonly Heap _far;
    private SimulationEvent[] _slots;
    private int[] _freeSlots;
    private int _freeCount;
    private int _slotsUsed;
    private long _lastDue;

    /// <summary>Creates a queue with room for <paramref name="initialCapacity"/> events before it grows.</summary>
    /// <param name="initialCapacity">The events to make room for up front.</param>
    /// <param name="nearWindowNanoseconds">How far ahead of the last event taken an event counts as near.</param>
    public EventQueue(int initialCapacity, long nearWindowNanoseconds = DefaultNearWindowNanoseconds)
    {
        var capacity = Math.Max(16, initialCapacity);
        _near = new Heap(capacity);
        _far = new Heap(capacity);
        _slots = new SimulationEvent[capacity];
        _freeSlots = new int[capacity];
        NearWindowNanoseconds = nearWindowNanoseconds;
    }

    /// <summary>Gets how far ahead of the last event taken an event goes to the near heap.</summary>
    public long NearWindowNanoseconds { get; }

    /// <summary>Gets how many events are queued.</summary>
    public int Count => _near.Count + _far.Count;

    /// <summary>Queues <paramref name="item"/> due at <paramref name="dueNanoseconds"/>, ordered behind every queued event with a lower sequence at the same time.</summary>
    public int Enqueue(long dueNanoseconds, long sequence, in SimulationEvent item)
    {
        if (Count == _slots.Length)
        {
            Array.Resize(ref _slots, _slots.Length * 2);
            Array.Resize(ref _freeSlots, _slots.Length);
        }

        var slot = _freeCount > 0 ? _freeSlots[--_freeCount] : _slotsUsed++;
        if ((ulong)sequence > SequenceMax || slot > SlotMask)
        {
            ThrowFull();
        }

        _slots[slot] = item;
        var entry = new HeapEntry(dueNanoseconds, ((ulong)sequence << SlotBits) | (uint)slot);
        (dueNanoseconds - _lastDue < NearWindowNanoseconds ? _near : _far).Push(entry);
        return slot;
    }

    /// <summary>
    /// Cancels the pending event in <paramref name="slot"/> (returned by <see cref="Enqueue"/>; the
    /// caller knows it has not run yet): it stays queued but is dequeued as
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
        if (_near.Count == 0)
        {
            if (_far.Count == 0)
            {
                dueNanoseconds = 0;
                return false;
            }

            dueNanoseconds = _far.Entries[0].Due;
            return true;
        }

        dueNanoseconds = _far.Count == 0 ? _near.Entries[0].Due : Math.Min(_near.Entries[0].Due, _far.Entries[0].Due);
        return true;
    }

    /// <summary>Takes the first event out. The caller checked that the queue is not empty.</summary>
    public SimulationEvent Dequeue(out long dueNanoseconds, out long sequence)
    {
        var from = _far.Count == 0 || (_near.Count > 0 && Before(_near.Entries[0], _far.Entries[0])) ? _near : _far;
        var first = from.Pop();
        dueNanoseconds = first.Due;
        _lastDue = first.Due;
        sequence = (long)(first.Order >> SlotBits);
        var firstSlot = (int)(first.Order & SlotMask);
        var item = _slots[firstSlot];
        _slots[firstSlot] = default;
        _freeSlots[_freeCount++] = firstSlot;
        return item;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool Before(in HeapEntry a, in HeapEntry b) =>
        a.Due < b.Due || (a.Due == b.Due && a.Order < b.Order);

    [DoesNotReturn]
    private static void ThrowFull() =>
        throw new InvalidOperationException($"The event queue holds at most {SlotMask + 1} pending events and {SequenceMax} insertions.");

    /// <summary>A heap entry: the due time, then the insertion sequence (high bits) and slot (low bits), ordered as (due, sequence).</summary>
    private readonly record struct HeapEntry(long Due, ulong Order);

    /// <summary>A 4-ary min-heap of entries.</summary>
    private sealed class Heap(int capacity)
    {
        public HeapEntry[] Entries = new HeapEntry[capacity];

        public int Count;

        public void Push(HeapEntry entry)
        {
            if (Count == Entries.Length)
            {
                Array.Resize(ref Entries, Entries.Length * 2);
            }

            var heap = Entries;
            var index = Count++;
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

        /// <summary>Takes the first entry out; the heap is not empty.</summary>
        public HeapEntry Pop()
        {
            var heap = Entries;
            var first = heap[0];
            var count = --Count;
            if (count == 0)
            {
                return first;
            }

            // Places the old last entry from the root down.
            var entry = heap[count];
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
            return first;
        }
    }
}
