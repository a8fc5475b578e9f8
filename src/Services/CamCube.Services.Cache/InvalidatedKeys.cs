namespace CamCube.Services.Cache;

/// <summary>
/// A copy holder's memory of the invalidations it received, for one lease: a root's answer that
/// fills a copy may travel by another path than the invalidation of a later write, and arrive after
/// it. The answer carries the moment the holder asked (its lease start); a copy asked for before the
/// key's last invalidation is not kept. Bounded: when full it forgets every key and refuses every
/// copy asked for before that moment instead. Used on the loop only.
/// </summary>
internal sealed class InvalidatedKeys
{
    private readonly Dictionary<byte[], long> _at = new(ByteKeyComparer.Instance);
    private readonly Dictionary<byte[], long>.AlternateLookup<ReadOnlySpan<byte>> _byBytes;
    private readonly Queue<(byte[] Key, long At)> _byAge = new();
    private readonly int _capacity;
    private readonly long _leaseTicks;
    private long _refuseAskedBefore = long.MinValue;

    public InvalidatedKeys(int capacity, long leaseTicks)
    {
        _capacity = capacity;
        _leaseTicks = leaseTicks;
        _byBytes = _at.GetAlternateLookup<ReadOnlySpan<byte>>();
    }

    /// <summary>Records that <paramref name="key"/> was invalidated at <paramref name="now"/>.</summary>
    public void Add(ReadOnlySpan<byte> key, long now)
    {
        if (_byBytes.TryGetValue(key, out var stored, out _))
        {
            _at[stored] = now;
            _byAge.Enqueue((stored, now));
            return;
        }

        if (_at.Count >= _capacity)
        {
            _refuseAskedBefore = now + 1;
            _at.Clear();
            _byAge.Clear();
            return;
        }

        var copy = key.ToArray();
        _at.Add(copy, now);
        _byAge.Enqueue((copy, now));
    }

    /// <summary>Gets whether a copy of <paramref name="key"/> asked for at <paramref name="askedAt"/> may be older than an invalidation received here.</summary>
    public bool MayBeStale(ReadOnlySpan<byte> key, long askedAt) =>
        askedAt < _refuseAskedBefore || (_byBytes.TryGetValue(key, out var at) && askedAt <= at);

    /// <summary>Forgets invalidations older than a lease: a copy asked for before them is dead anyway.</summary>
    public void Expire(long now)
    {
        while (_byAge.TryPeek(out var oldest) && oldest.At + _leaseTicks < now)
        {
            _byAge.Dequeue();
            if (_at.TryGetValue(oldest.Key, out var at) && at == oldest.At)
            {
                _at.Remove(oldest.Key);
            }
        }
    }
}
