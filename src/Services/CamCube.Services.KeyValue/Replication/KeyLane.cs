using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue.Replication;

/// <summary>
/// One key at its primary: its operations run one at a time, in arrival order (so a conditional
/// write is decided against the previous write's outcome), and the ballot under which the primary
/// took the key over, with the replica set it took it over with. Used on the node's loop only.
/// </summary>
internal sealed class KeyLane
{
    private readonly Queue<TaskCompletionSource> _waiting = new();
    private bool _busy;
    private long _droppingUntil;

    /// <summary>Gets or sets the ballot this primary holds the key under, or 0 when it must take the key over first.</summary>
    public long Ballot { get; set; }

    /// <summary>Gets or sets the replica set the ballot was taken with; another set means taking the key over again.</summary>
    public Coordinate[] Set { get; set; } = [];

    /// <summary>Gets or sets the highest ballot a replica answered with, so the next try goes above it.</summary>
    public long HighestBallotSeen { get; set; }

    /// <summary>Gets or sets when the read lease the other replicas granted ends (a timestamp of this server's clock); reads are served from what this server holds until then.</summary>
    public long LeaseUntil { get; set; }

    /// <summary>Gets or sets why the last round of the primary with the replicas neither kept nor was refused everywhere (null: it was decided), for the log when a write is then answered as undecided.</summary>
    public string? UndecidedBecause { get; set; }

    /// <summary>Gets or sets whether this lane may keep the key's newest value in memory (a bounded number of lanes may).</summary>
    public bool CanHold { get; init; }

    /// <summary>
    /// Gets the unconditional sets waiting for the key's next turn together, in arrival order (null:
    /// none). The first of them waits in the queue of turns; those that come while it waits join it,
    /// and the turn writes them all in one round (<c>KeyValueService.SetsTogether</c>).
    /// </summary>
    public List<WaitingSet>? Waiting { get; private set; }

    /// <summary>
    /// Adds <paramref name="set"/> to the sets waiting together. Returns the new group when it is the
    /// first (it then waits for the turn, and takes the group with <see cref="CloseWaiting"/>), or null
    /// when it joined a group of fewer than <paramref name="max"/>.
    /// </summary>
    public List<WaitingSet>? AddWaiting(WaitingSet set, int max)
    {
        if (Waiting is { } waiting && waiting.Count < max)
        {
            waiting.Add(set);
            return null;
        }

        Waiting = [set];
        return Waiting;
    }

    /// <summary>On its turn, closes <paramref name="group"/> (unless a full group was closed already): later sets wait for a turn of their own.</summary>
    public void CloseWaiting(List<WaitingSet> group)
    {
        if (Waiting == group)
        {
            Waiting = null;
        }
    }

    /// <summary>Gets whether <see cref="Held"/> is the key's newest value at this primary (only while it holds the ballot).</summary>
    public bool IsHeldKnown { get; private set; }

    /// <summary>Gets the key's newest value at this primary (null: none) when <see cref="IsHeldKnown"/>.</summary>
    public StoredValue? Held { get; private set; }

    /// <summary>Gets a value indicating whether an operation runs or waits.</summary>
    public bool IsIdle => !_busy && _waiting.Count == 0;

    /// <summary>Waits for the key's turn; every caller calls <see cref="Exit"/> after.</summary>
    public Task EnterAsync()
    {
        if (!_busy)
        {
            _busy = true;
            return Task.CompletedTask;
        }

        var turn = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        _waiting.Enqueue(turn);
        return turn.Task;
    }

    /// <summary>Ends the current operation's turn and hands it to the next waiting one.</summary>
    public void Exit()
    {
        if (_waiting.TryDequeue(out var next))
        {
            next.SetResult();
        }
        else
        {
            _busy = false;
        }
    }

    /// <summary>Gets the servers this primary granted a front-end lease on the key, each with when it ends on this server's clock (null: none yet).</summary>
    public Dictionary<Coordinate, long>? LeaseHolders { get; private set; }

    /// <summary>Notes a front-end lease granted to <paramref name="holder"/> until <paramref name="until"/> (a timestamp of this server's clock).</summary>
    public void NoteLeaseHolder(Coordinate holder, long until)
    {
        LeaseHolders ??= [];
        LeaseHolders[holder] = LeaseHolders.TryGetValue(holder, out var known) ? Math.Max(known, until) : until;
    }

    /// <summary>Gets when the last front-end lease this primary granted on the key, and has not had dropped since, ends (a timestamp of this server's clock); 0 when none.</summary>
    public long FrontEndLeasesEnd()
    {
        var end = _droppingUntil;
        if (LeaseHolders is { } holders)
        {
            foreach (var until in holders.Values)
            {
                end = Math.Max(end, until);
            }
        }

        return end;
    }

    /// <summary>Takes the holders whose leases run past <paramref name="now"/> and forgets all of them; null when there are none. Their leases count in <see cref="FrontEndLeasesEnd"/> until <see cref="LeasesDropped"/>.</summary>
    public List<KeyValuePair<Coordinate, long>>? TakeLeaseHolders(long now)
    {
        if (LeaseHolders is not { Count: > 0 } holders)
        {
            return null;
        }

        List<KeyValuePair<Coordinate, long>>? live = null;
        foreach (var holder in holders)
        {
            if (holder.Value > now)
            {
                (live ??= []).Add(holder);
            }
        }

        holders.Clear();
        if (live is not null)
        {
            foreach (var holder in live)
            {
                _droppingUntil = Math.Max(_droppingUntil, holder.Value);
            }
        }

        return live;
    }

    /// <summary>The holders taken with <see cref="TakeLeaseHolders"/> dropped their leases, or they were waited out.</summary>
    public void LeasesDropped() => _droppingUntil = 0;

    /// <summary>Keeps the key's newest value (when this lane may), as it is in the storage now.</summary>
    public void Hold(StoredValue? value)
    {
        Held = value;
        IsHeldKnown = CanHold;
    }

    /// <summary>Forgets the kept value: the next read takes it from the storage.</summary>
    public void Forget()
    {
        Held = null;
        IsHeldKnown = false;
    }

    /// <summary>Forgets the ballot, the lease and the kept value: the next operation takes the key over again.</summary>
    public void Depose()
    {
        Ballot = 0;
        LeaseUntil = 0;
        Forget();
    }
}
