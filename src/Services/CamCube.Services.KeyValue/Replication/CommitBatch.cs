using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue.Replication;

/// <summary>
/// The writes that wait on one server to be kept: they are committed together, one commit (one disk
/// write for SQLite) for all that arrived in one turn of the node's loop, and each waiting task
/// completes when its write is on disk. Used on the node's loop only.
/// </summary>
internal sealed class CommitBatch(IKeyValueStorage storage)
{
    private readonly List<KeyValuePair<Key, StoredValue>> _writes = [];
    private readonly List<TaskCompletionSource<bool>> _waiting = [];

    /// <summary>Gets how many writes wait.</summary>
    public int Count => _writes.Count;

    /// <summary>Adds a write; the task completes after the next <see cref="Commit"/>, with whether the write was newer and kept.</summary>
    public Task<bool> Add(Key key, StoredValue value)
    {
        var kept = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        _writes.Add(new(key, value));
        _waiting.Add(kept);
        return kept.Task;
    }

    /// <summary>Commits every waiting write at once and completes their tasks (with the storage's exception if it failed).</summary>
    public void Commit()
    {
        if (_writes.Count == 0)
        {
            return;
        }

        var writes = _writes.ToArray();
        var waiting = _waiting.ToArray();
        _writes.Clear();
        _waiting.Clear();
        var kept = new bool[writes.Length];
        try
        {
            storage.ApplyAll(writes, kept);
        }
#pragma warning disable CA1031 // A failed commit fails every write that waited on it, through its task.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            foreach (var wait in waiting)
            {
                wait.TrySetException(ex);
            }

            return;
        }

        for (var i = 0; i < waiting.Length; i++)
        {
            waiting[i].TrySetResult(kept[i]);
        }
    }
}
