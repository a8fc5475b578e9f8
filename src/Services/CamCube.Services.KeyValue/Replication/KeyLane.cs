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

    /// <summary>Gets or sets the ballot this primary holds the key under, or 0 when it must take the key over first.</summary>
    public long Ballot { get; set; }

    /// <summary>Gets or sets the replica set the ballot was taken with; another set means taking the key over again.</summary>
    public Coordinate[] Set { get; set; } = [];

    /// <summary>Gets or sets the highest ballot a replica answered with, so the next try goes above it.</summary>
    public long HighestBallotSeen { get; set; }

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

    /// <summary>Forgets the ballot: the next operation takes the key over again.</summary>
    public void Depose() => Ballot = 0;
}
