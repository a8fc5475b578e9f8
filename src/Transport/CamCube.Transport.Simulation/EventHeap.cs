namespace CamCube.Transport.Simulation;

/// <summary>
/// A 4-ary min-heap of <see cref="EventEntry"/> values in (due, sequence) order. Entries are plain
/// 16-byte numbers, so sifting needs no garbage-collector write barrier, and four children fill
/// one cache line. Grows by doubling; allocates nothing once grown.
/// </summary>
/// <param name="capacity">The entries to make room for up front.</param>
internal sealed class EventHeap(int capacity)
{
    private const int Arity = 4;

    private EventEntry[] _entries = new EventEntry[Math.Max(1, capacity)];

    /// <summary>Gets how many entries the heap holds.</summary>
    public int Count { get; private set; }

    /// <summary>Gets the first entry; the heap is not empty.</summary>
    public ref readonly EventEntry First => ref _entries[0];

    /// <summary>Adds an entry.</summary>
    public void Push(in EventEntry entry)
    {
        if (Count == _entries.Length)
        {
            Array.Resize(ref _entries, _entries.Length * 2);
        }

        var heap = _entries;
        var index = Count++;
        while (index > 0)
        {
            var parent = (index - 1) / Arity;
            ref var above = ref heap[parent];
            if (!EventEntry.Before(entry, above))
            {
                break;
            }

            heap[index] = above;
            index = parent;
        }

        heap[index] = entry;
    }

    /// <summary>Takes the first entry out; the heap is not empty.</summary>
    public EventEntry Pop()
    {
        var heap = _entries;
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
                if (EventEntry.Before(heap[c], heap[best]))
                {
                    best = c;
                }
            }

            if (!EventEntry.Before(heap[best], entry))
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
