namespace CamCube.Services.Reliable;

/// <summary>
/// Puts values that travel as several packets back together at a server that is not their
/// requester (a packet carries about 9,000 bytes; a value may be larger), each value named by an id
/// of the caller's choosing (for example the requester, its request id and the message's kind).
/// Fragments may arrive in any order, and twice; each names its offset and the value's length.
/// Bounded: at most <see cref="BytesMax"/> bytes in partial values (a fragment that would start
/// another is dropped), and <see cref="Sweep"/> drops partials older than the caller's limit.
/// </summary>
/// <typeparam name="TId">What names a value.</typeparam>
public sealed class FragmentAssembler<TId>
    where TId : notnull, IEquatable<TId>
{
    private readonly Dictionary<TId, Partial> _partials = [];
    private readonly List<TId> _expired = [];

    /// <summary>Creates an assembler that holds at most <paramref name="bytesMax"/> bytes of partial values.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="bytesMax"/> is negative.</exception>
    public FragmentAssembler(long bytesMax)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(bytesMax);
        BytesMax = bytesMax;
    }

    /// <summary>Gets the most bytes held in partial values.</summary>
    public long BytesMax { get; }

    /// <summary>Gets the bytes held in partial values now.</summary>
    public long BytesHeld { get; private set; }

    /// <summary>Gets how many fragments or partial values were dropped: outside their value, over the bound, of another length than the value under way, or out of time.</summary>
    public long Dropped { get; private set; }

    /// <summary>Gets how many values are partly here.</summary>
    public int PartialCount => _partials.Count;

    /// <summary>Adds the fragment <paramref name="chunk"/> at <paramref name="offset"/> of the value <paramref name="id"/>, <paramref name="total"/> bytes long.</summary>
    /// <param name="id">The value's name.</param>
    /// <param name="total">The whole value's length; the caller checks it against its own limit.</param>
    /// <param name="offset">Where the fragment starts in the value.</param>
    /// <param name="chunk">The fragment.</param>
    /// <param name="now">A timestamp of the node's clock: when a new value starts (see <see cref="Sweep"/>).</param>
    /// <returns>The whole value once every byte arrived (a new array, the caller's); else null.</returns>
    public byte[]? Add(TId id, int total, int offset, ReadOnlySpan<byte> chunk, long now)
    {
        if (total < 0 || offset < 0 || (long)offset + chunk.Length > total)
        {
            // Bytes outside the value (a sender that broke the format): nothing to put anywhere.
            Dropped++;
            return null;
        }

        if (offset == 0 && chunk.Length == total)
        {
            return chunk.ToArray();
        }

        if (!_partials.TryGetValue(id, out var partial))
        {
            if (BytesHeld + total > BytesMax)
            {
                Dropped++;
                return null;
            }

            partial = new Partial(new byte[total], now);
            _partials.Add(id, partial);
            BytesHeld += total;
        }
        else if (partial.Buffer.Length != total)
        {
            // Another value under the same id: it would not fit the buffer.
            Dropped++;
            return null;
        }

        if (!partial.Fragments.TryAdd(offset, chunk.Length, total))
        {
            // A duplicate (a resent or duplicated packet): counting it twice would finish the value with a hole.
            return null;
        }

        chunk.CopyTo(partial.Buffer.AsSpan(offset));
        if (partial.Fragments.ReceivedBytes < partial.Buffer.Length)
        {
            return null;
        }

        _partials.Remove(id);
        BytesHeld -= partial.Buffer.Length;
        return partial.Buffer;
    }

    /// <summary>Drops partial values that started before <paramref name="startedBefore"/> (a timestamp of the node's clock).</summary>
    /// <returns>How many were dropped.</returns>
    public int Sweep(long startedBefore)
    {
        foreach (var (id, partial) in _partials)
        {
            if (partial.StartedAt < startedBefore)
            {
                _expired.Add(id);
            }
        }

        foreach (var id in _expired)
        {
            if (_partials.Remove(id, out var partial))
            {
                BytesHeld -= partial.Buffer.Length;
                Dropped++;
            }
        }

        var count = _expired.Count;
        _expired.Clear();
        return count;
    }

    private sealed class Partial(byte[] buffer, long startedAt)
    {
        public byte[] Buffer { get; } = buffer;

        public long StartedAt { get; } = startedAt;

        public FragmentTracker Fragments { get; } = new();
    }
}
