using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using CamCube.Packets;

namespace CamCube.Transport.Simulation;

/// <summary>
/// The engine's pending events, taken out in (due time, insertion sequence) order.
/// </summary>
/// <remarks>
/// <para>Events due before the end of the current bucket of an <see cref="EventWheel"/> (frames
/// on the wire, work posted now) go to a near heap; later ones (timers) go to the wheel, which
/// pours a bucket at a time into the near heap once it runs dry. The order is exactly that of one
/// heap; only the cost changes: the near heap stays small, and the hundreds of pending timers are
/// never sifted through.</para>
/// <para>Heap entries hold only numbers (<see cref="EventEntry"/>); the events themselves, with
/// their references, stay put in a slot table. Sequences are unique, so the order is total and a
/// run replays exactly. Grows by doubling; allocates nothing once grown.</para>
/// </remarks>
internal sealed class EventQueue
{
    /// <summary>The default width of a wheel bucket: 2^15 ns, about 33 µs (longer than a jumbo frame's serialization and propagation).</summary>
    public const int DefaultBucketBits = 15;

    /// <summary>The default number of wheel buckets: 2^12, so the wheel spans about 134 ms (the heartbeats beyond it wait in its overflow heap).</summary>
    public const int DefaultWheelBits = 12;

    private readonly EventHeap _near;
    private readonly EventWheel _far;
    private SimulationEvent[] _slots;
    private int[] _freeSlots;
    private int _freeCount;
    private int _slotsUsed;

    /// <summary>Creates a queue with room for <paramref name="initialCapacity"/> events before it grows.</summary>
    /// <param name="initialCapacity">The events to make room for up front.</param>
    /// <param name="bucketBits">Log2 of the wheel's bucket width in nanoseconds.</param>
    /// <param name="wheelBits">Log2 of the wheel's number of buckets (at least 6).</param>
    public EventQueue(int initialCapacity, int bucketBits = DefaultBucketBits, int wheelBits = DefaultWheelBits)
    {
        var capacity = Math.Max(16, initialCapacity);
        _near = new EventHeap(capacity);
        _far = new EventWheel(bucketBits, wheelBits, capacity);
        _slots = new SimulationEvent[capacity];
        _freeSlots = new int[capacity];
    }

    /// <summary>Gets how many events are queued.</summary>
    public int Count => _near.Count + _far.Count;

    /// <summary>Queues <paramref name="item"/> due at <paramref name="dueNanoseconds"/>, ordered behind every queued event with a lower sequence at the same time.</summary>
    public int Enqueue(long dueNanoseconds, long sequence, in SimulationEvent item)
    {
        if (Count == _slots.Length)
        {
            Array.Resize(ref _slots, _slots.Length * 2);
            Array.Resize(ref _freeSlots, _slots.Length);
            _far.EnsureSlots(_slots.Length);
        }

        var slot = _freeCount > 0 ? _freeSlots[--_freeCount] : _slotsUsed++;
        if ((ulong)sequence > EventEntry.SequenceMax || slot > EventEntry.SlotMask)
        {
            ThrowFull();
        }

        _slots[slot] = item;
        var entry = EventEntry.Of(dueNanoseconds, sequence, slot);
        if (dueNanoseconds < _far.NearLimit)
        {
            _near.Push(entry);
        }
        else
        {
            _far.Add(entry);
        }

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
        if (_near.Count == 0 && !_far.TryPourNext(_near))
        {
            dueNanoseconds = 0;
            return false;
        }

        dueNanoseconds = _near.First.Due;
        return true;
    }

    /// <summary>Takes the first event out. The caller checked that the queue is not empty.</summary>
    public SimulationEvent Dequeue(out long dueNanoseconds, out long sequence)
    {
        if (_near.Count == 0)
        {
            _far.TryPourNext(_near);
        }

        var first = _near.Pop();
        dueNanoseconds = first.Due;
        sequence = first.Sequence;
        var firstSlot = first.Slot;
        var item = _slots[firstSlot];
        _slots[firstSlot] = default;
        _freeSlots[_freeCount++] = firstSlot;
        return item;
    }

    [DoesNotReturn]
    private static void ThrowFull() =>
        throw new InvalidOperationException($"The event queue holds at most {EventEntry.SlotMask + 1} pending events and {EventEntry.SequenceMax} insertions.");
}
