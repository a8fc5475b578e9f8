using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace CamCube.Services.Cache;

/// <summary>
/// The writes a root executed lately, by requester and request id, so that a write its requester
/// sent again (its answer, or the request itself, was lost) is answered without being executed
/// twice. Bounded: entries live for a fixed time, and when the table is full the oldest goes early.
/// Used on the loop only; allocates nothing once grown.
/// </summary>
internal sealed class RecentWrites(int capacity, long lifetimeTicks)
{
    private readonly Dictionary<(Coordinate Requester, uint RequestId), Entry> _entries = [];
    private readonly Queue<((Coordinate Requester, uint RequestId) Id, long ExpiresAt)> _byAge = new();

    /// <summary>Records a write executed now; its answer is still to go if <paramref name="answered"/> is false.</summary>
    public void Add(Coordinate requester, uint requestId, CacheStatus status, bool answered, long now)
    {
        while (_entries.Count >= capacity && _byAge.TryDequeue(out var oldest))
        {
            _entries.Remove(oldest.Id);
        }

        var id = (requester, requestId);
        if (_entries.TryAdd(id, new Entry(status, answered)))
        {
            _byAge.Enqueue((id, now + lifetimeTicks));
        }
    }

    /// <summary>Marks a write's answer as sent.</summary>
    public void MarkAnswered(Coordinate requester, uint requestId)
    {
        ref var entry = ref CollectionsMarshal.GetValueRefOrNullRef(_entries, (requester, requestId));
        if (!Unsafe.IsNullRef(ref entry))
        {
            entry = entry with { Answered = true };
        }
    }

    /// <summary>Finds a write executed lately.</summary>
    public bool TryGet(Coordinate requester, uint requestId, out CacheStatus status, out bool answered)
    {
        var found = _entries.TryGetValue((requester, requestId), out var entry);
        (status, answered) = (entry.Status, entry.Answered);
        return found;
    }

    /// <summary>Forgets the entries whose time is over.</summary>
    public void Expire(long now)
    {
        while (_byAge.TryPeek(out var oldest) && oldest.ExpiresAt <= now)
        {
            _byAge.Dequeue();
            _entries.Remove(oldest.Id);
        }
    }

    private readonly record struct Entry(CacheStatus Status, bool Answered);
}
