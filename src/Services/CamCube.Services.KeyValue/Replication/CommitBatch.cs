using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue.Replication;

/// <summary>
/// Writes that wait to be committed together: one commit (one disk write for SQLite) for all of
/// them, after which each waiting task completes with whether its write was kept. Not thread-safe:
/// one owner at a time (the loop, or a committer's thread once it took the batch).
/// </summary>
internal sealed class CommitBatch
{
    private readonly List<StorageWrite> _writes = [];
    private readonly List<TaskCompletionSource<bool>> _waiting = [];
    private bool[] _kept = new bool[16];

    /// <summary>Gets how many writes wait.</summary>
    public int Count => _writes.Count;

    /// <summary>Adds a write; the task completes after the next <see cref="CommitTo"/>, with whether the write was newer and kept.</summary>
    public Task<bool> Add(StorageWrite write)
    {
        // Continuations run elsewhere (an awaiting loop's context posts them to the loop), never inside the commit.
        var kept = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        _writes.Add(write);
        _waiting.Add(kept);
        return kept.Task;
    }

    /// <summary>Commits every waiting write at once, completes their tasks (with the storage's exception if it failed) and empties the batch.</summary>
    public void CommitTo(IKeyValueStorage storage)
    {
        if (_writes.Count == 0)
        {
            return;
        }

        if (_kept.Length < _writes.Count)
        {
            _kept = new bool[Math.Max(_writes.Count, _kept.Length * 2)];
        }

        try
        {
            storage.ApplyAll(_writes, _kept);
            for (var i = 0; i < _waiting.Count; i++)
            {
                _waiting[i].TrySetResult(_kept[i]);
            }
        }
#pragma warning disable CA1031 // A failed commit fails every write that waited on it, through its task.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            Fail(ex);
        }

        _writes.Clear();
        _waiting.Clear();
    }

    /// <summary>Fails every waiting write with <paramref name="error"/> and empties the batch.</summary>
    public void Fail(Exception error)
    {
        foreach (var wait in _waiting)
        {
            wait.TrySetException(error);
        }

        _writes.Clear();
        _waiting.Clear();
    }
}
