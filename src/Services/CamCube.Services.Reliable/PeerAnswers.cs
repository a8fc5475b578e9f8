namespace CamCube.Services.Reliable;

/// <summary>
/// The requests a responder took from one incarnation of one requester: the entry of each, until
/// the requester says it no longer waits for it (its lowest open exchange id passed it) or the table
/// is full, and the floor below which a request without an entry is a stale copy, never handled.
/// </summary>
internal sealed class PeerAnswers
{
    /// <summary>Gets the entries by exchange id.</summary>
    public Dictionary<ulong, AnsweredExchange> Entries { get; } = [];

    /// <summary>Gets the lowest exchange id that may still be taken: every id below it was answered, forgotten or given up by the requester.</summary>
    public ulong Floor { get; private set; }

    /// <summary>Gets or sets when the requester was last heard, a timestamp of the node's clock.</summary>
    public long LastHeard { get; set; }

    /// <summary>Raises the floor to the requester's lowest open exchange id and forgets the entries below it.</summary>
    public void Forget(ulong oldestOpen, List<ulong> scratch, Stack<AnsweredExchange> pool)
    {
        if (oldestOpen <= Floor)
        {
            return;
        }

        Floor = oldestOpen;
        foreach (var id in Entries.Keys)
        {
            if (id < oldestOpen)
            {
                scratch.Add(id);
            }
        }

        foreach (var id in scratch)
        {
            Release(id, pool);
        }

        scratch.Clear();
    }

    /// <summary>
    /// Makes room for one entry when the table holds <paramref name="entriesMax"/>: the lowest id goes
    /// if its exchange has ended (replied or refused), and the floor rises past it, so a late copy of
    /// that request is refused rather than handled twice. False when the lowest exchange is still
    /// running: nothing is forgotten, and the new request waits until it ends or the requester gives it up.
    /// </summary>
    public bool MakeRoom(int entriesMax, Stack<AnsweredExchange> pool)
    {
        if (Entries.Count < entriesMax)
        {
            return true;
        }

        var lowest = ulong.MaxValue;
        foreach (var id in Entries.Keys)
        {
            lowest = Math.Min(lowest, id);
        }

        if (Entries[lowest] is { Replied: false, Refused: false })
        {
            return false;
        }

        Release(lowest, pool);
        Floor = Math.Max(Floor, lowest + 1);
        return true;
    }

    /// <summary>Returns every entry to the pool.</summary>
    public void Clear(Stack<AnsweredExchange> pool)
    {
        foreach (var entry in Entries.Values)
        {
            entry.Clear();
            pool.Push(entry);
        }

        Entries.Clear();
    }

    private void Release(ulong id, Stack<AnsweredExchange> pool)
    {
        if (Entries.Remove(id, out var entry))
        {
            entry.Clear();
            pool.Push(entry);
        }
    }
}
