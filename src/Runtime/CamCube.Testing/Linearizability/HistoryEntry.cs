namespace CamCube.Testing.Linearizability;

/// <summary>
/// The call or the return of one operation, as a node of the doubly linked list the checker
/// searches (Wing and Gong's search, with Lowe's lifting of linearized operations out of the list).
/// </summary>
internal sealed class HistoryEntry(int operation, bool isCall, long time)
{
    /// <summary>Gets the index of the operation in the history.</summary>
    public int Operation { get; } = operation;

    /// <summary>Gets a value indicating whether this is the call (true) or the return (false).</summary>
    public bool IsCall { get; } = isCall;

    /// <summary>Gets the time of the event, in the history's ticks.</summary>
    public long Time { get; } = time;

    /// <summary>Gets or sets the call's return, or the return's call.</summary>
    public HistoryEntry? Match { get; set; }

    /// <summary>Gets or sets the previous entry in the list (the head sentinel before the first).</summary>
    public HistoryEntry? Previous { get; set; }

    /// <summary>Gets or sets the next entry in the list.</summary>
    public HistoryEntry? Next { get; set; }

    /// <summary>Takes this call and its return out of the list (the operation is placed in the order).</summary>
    public void Lift()
    {
        Unlink(this);
        Unlink(Match!);
    }

    /// <summary>Puts this call and its return back where they were, in the reverse order of <see cref="Lift"/>.</summary>
    public void Unlift()
    {
        Relink(Match!);
        Relink(this);
    }

    private static void Unlink(HistoryEntry entry)
    {
        entry.Previous!.Next = entry.Next;
        if (entry.Next is not null)
        {
            entry.Next.Previous = entry.Previous;
        }
    }

    private static void Relink(HistoryEntry entry)
    {
        entry.Previous!.Next = entry;
        if (entry.Next is not null)
        {
            entry.Next.Previous = entry;
        }
    }
}
