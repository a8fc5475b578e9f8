using System.Diagnostics.CodeAnalysis;
using System.Numerics;

namespace CamCube.Transport.Simulation;

/// <summary>
/// The engine's later events (timers, mostly): a timing wheel of buckets of 2^bucketBits
/// nanoseconds, and a heap for events beyond the wheel's horizon. Buckets are unordered; when the
/// near heap runs dry, the next occupied bucket is poured into it, and the heap orders its events
/// exactly. So the order stays exactly (due, sequence), and a timer costs a link into a bucket and
/// a push into a small heap instead of a push and a pop through a heap of every pending timer.
/// </summary>
/// <remarks>
/// Invariant: every event due before <see cref="NearLimit"/> is in the near heap; the bucket
/// <c>b</c> (absolute: due &gt;&gt; bucketBits) of every event in the wheel is within
/// (current, current + buckets); the overflow heap holds the rest. A bucket is a list linked
/// through the events' slots, so the wheel needs no storage per bucket but its head.
/// </remarks>
internal sealed class EventWheel
{
    private readonly int _bucketBits;
    private readonly long _mask;
    private readonly int[] _heads;
    private readonly ulong[] _occupied;
    private readonly EventHeap _overflow;
    private EventEntry[] _entries;
    private int[] _next;
    private long _current;
    private int _inBuckets;

    /// <summary>Creates an empty wheel at time zero.</summary>
    /// <param name="bucketBits">Log2 of a bucket's width in nanoseconds.</param>
    /// <param name="wheelBits">Log2 of the number of buckets; at least 6.</param>
    /// <param name="slots">The event slots to make room for up front (see <see cref="EnsureSlots"/>).</param>
    public EventWheel(int bucketBits, int wheelBits, int slots)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(bucketBits);
        ArgumentOutOfRangeException.ThrowIfLessThan(wheelBits, 6);
        _bucketBits = bucketBits;
        _mask = (1L << wheelBits) - 1;
        _heads = new int[1 << wheelBits];
        Array.Fill(_heads, -1);
        _occupied = new ulong[(1 << wheelBits) / 64];
        _overflow = new EventHeap(64);
        _entries = new EventEntry[slots];
        _next = new int[slots];
    }

    /// <summary>Gets the time from which events belong here, not in the near heap: the end of the current bucket.</summary>
    public long NearLimit => (_current + 1) << _bucketBits;

    /// <summary>Gets how many events the wheel and its overflow hold.</summary>
    public int Count => _inBuckets + _overflow.Count;

    /// <summary>Makes room for events in slots up to <paramref name="slots"/> - 1.</summary>
    public void EnsureSlots(int slots)
    {
        if (slots > _entries.Length)
        {
            Array.Resize(ref _entries, slots);
            Array.Resize(ref _next, slots);
        }
    }

    /// <summary>Adds an event due at or after <see cref="NearLimit"/>.</summary>
    public void Add(in EventEntry entry)
    {
        var bucket = entry.Due >> _bucketBits;
        if (bucket - _current > _mask)
        {
            _overflow.Push(entry);
        }
        else
        {
            Link(entry, bucket);
        }
    }

    /// <summary>
    /// Moves on to the next occupied bucket and pours its events into <paramref name="near"/>, which
    /// is empty; returns false when the wheel is empty too.
    /// </summary>
    public bool TryPourNext(EventHeap near)
    {
        if (_inBuckets > 0)
        {
            _current = NextOccupied(_current + 1);
            var position = (int)(_current & _mask);
            for (var slot = _heads[position]; slot >= 0; slot = _next[slot])
            {
                near.Push(_entries[slot]);
                _inBuckets--;
            }

            _heads[position] = -1;
            _occupied[position >> 6] &= ~(1UL << position);
        }
        else if (_overflow.Count > 0)
        {
            _current = _overflow.First.Due >> _bucketBits;
        }
        else
        {
            return false;
        }

        // The horizon moved: overflow events now within it join their buckets, or the near heap.
        while (_overflow.Count > 0 && (_overflow.First.Due >> _bucketBits) - _current <= _mask)
        {
            var entry = _overflow.Pop();
            var bucket = entry.Due >> _bucketBits;
            if (bucket == _current)
            {
                near.Push(entry);
            }
            else
            {
                Link(entry, bucket);
            }
        }

        return true;
    }

    private void Link(in EventEntry entry, long bucket)
    {
        var position = (int)(bucket & _mask);
        var slot = entry.Slot;
        _entries[slot] = entry;
        _next[slot] = _heads[position];
        _heads[position] = slot;
        _occupied[position >> 6] |= 1UL << position;
        _inBuckets++;
    }

    /// <summary>Gets the first occupied bucket at or after <paramref name="from"/> (absolute); some bucket is occupied.</summary>
    private long NextOccupied(long from)
    {
        var start = (int)(from & _mask);
        var word = start >> 6;
        var bits = _occupied[word] & (ulong.MaxValue << start);
        for (var i = 0; i <= _occupied.Length; i++)
        {
            if (bits != 0)
            {
                var found = (word << 6) + BitOperations.TrailingZeroCount(bits);
                return from + ((found - start) & _mask);
            }

            word = word + 1 == _occupied.Length ? 0 : word + 1;
            bits = _occupied[word];
        }

        return ThrowCorrupt();
    }

    [DoesNotReturn]
    private static long ThrowCorrupt() => throw new InvalidOperationException("The event wheel counts events in its buckets but none is occupied.");
}
