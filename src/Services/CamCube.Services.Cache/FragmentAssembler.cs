namespace CamCube.Services.Cache;

/// <summary>
/// Puts values that travel as several packets back together (a packet carries at most about
/// 9,000 bytes; an item up to 1 MB). Fragments may arrive in any order; each names its offset.
/// Bounded: at most <see cref="BytesMax"/> bytes in partial values; older partials time out.
/// </summary>
internal sealed class FragmentAssembler(long bytesMax)
{
    private readonly Dictionary<(Coordinate Requester, uint RequestId, CacheMessageType Type), Partial> _partials = [];
    private readonly List<(Coordinate, uint, CacheMessageType)> _expired = [];

    public long BytesMax { get; } = bytesMax;

    public long BytesHeld { get; private set; }

    public long Dropped { get; private set; }

    public int PartialCount => _partials.Count;

    /// <summary>Adds the fragment in payload <paramref name="p"/>; returns the whole value once every byte arrived, else null.</summary>
    public byte[]? Add(ReadOnlySpan<byte> p, long now)
    {
        var chunk = CacheMessage.ChunkOf(p);
        var total = CacheMessage.ValueLengthOf(p);
        var offset = CacheMessage.ChunkOffsetOf(p);
        if (offset == 0 && chunk.Length == total)
        {
            return chunk.ToArray();
        }

        var id = (CacheMessage.RequesterOf(p), CacheMessage.RequestIdOf(p), CacheMessage.TypeOf(p));
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

    /// <summary>Drops partial values that started before <paramref name="startedBefore"/>; returns how many.</summary>
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
