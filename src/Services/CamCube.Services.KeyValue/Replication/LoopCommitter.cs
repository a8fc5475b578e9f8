using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue.Replication;

/// <summary>
/// Commits on the node's loop: the writes added in one turn share one commit, run as posted work at
/// the end of the turn. For the memory backend and the test cubes in virtual time (no thread of its
/// own, so a run replays bit for bit).
/// </summary>
internal sealed class LoopCommitter(IKeyValueStorage storage, INodeContext node, KeyValueStatistics statistics) : Committer
{
    private readonly CommitBatch _batch = new();
    private bool _posted;
    private bool _stopped;

    /// <inheritdoc/>
    public override bool HasRoom => true;

    /// <inheritdoc/>
    public override Task<bool> Add(StorageWrite write)
    {
        if (_stopped)
        {
            return Task.FromException<bool>(new ObjectDisposedException(nameof(LoopCommitter), "The store's node stopped before the write was committed."));
        }

        var kept = _batch.Add(write);
        if (!_posted)
        {
            _posted = node.TryPost(static state => ((LoopCommitter)state!).CommitNow(), this);
            if (!_posted)
            {
                CommitNow();
            }
        }

        return kept;
    }

    /// <inheritdoc/>
    public override Task FlushAsync()
    {
        CommitNow();
        return Task.CompletedTask;
    }

    /// <inheritdoc/>
    public override void Dispose()
    {
        CommitNow();
        _stopped = true;
    }

    private void CommitNow()
    {
        _posted = false;
        if (_batch.Count > 0)
        {
            statistics.CommitsOnLoop++;
        }

        _batch.CommitTo(storage);
    }
}
