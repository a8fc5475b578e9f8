using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue.Replication;

/// <summary>
/// Commits on the threads of a <see cref="KeyValueCommitPool"/> shared with other servers: when
/// writes wait and no turn is queued or under way, the committer joins the pool's queue; a turn
/// commits every write that waits then, and queues another if more came meanwhile. A waiting task
/// completes on the pool's thread; its awaiter on the loop resumes there.
/// </summary>
internal sealed class PooledCommitter : QueueingCommitter
{
    private readonly KeyValueCommitPool _pool;
    private readonly KeyValueStatistics _statistics;
    private bool _queued;
    private bool _inTurn;

    /// <summary>Creates a committer whose commits run on <paramref name="pool"/>'s threads.</summary>
    /// <param name="storage">Where the writes go.</param>
    /// <param name="pool">The threads that commit.</param>
    /// <param name="writesMax">How many writes may wait, beside the commit under way.</param>
    /// <param name="name">Whose committer this is, for errors (the node's coordinate).</param>
    /// <param name="statistics">Where the commits are counted.</param>
    public PooledCommitter(IKeyValueStorage storage, KeyValueCommitPool pool, int writesMax, string name, KeyValueStatistics statistics)
        : base(storage, writesMax, name)
    {
        _pool = pool;
        _statistics = statistics;
    }

    /// <summary>Commits what waits on the calling thread once no turn is queued or under way, then refuses further writes.</summary>
    public override void Dispose()
    {
        CommitBatch rest;
        lock (Gate)
        {
            if (Stopping)
            {
                return;
            }

            Stopping = true;
            while (_queued || _inTurn)
            {
                Monitor.Wait(Gate);
            }

            rest = TakeWaiting();
        }

        Commit(rest);
    }

    /// <summary>On a pool thread: commits every write that waits, then queues another turn if more came meanwhile.</summary>
    internal void CommitTurn()
    {
        CommitBatch batch;
        lock (Gate)
        {
            _queued = false;
            if (Held > 0 || Waiting == 0)
            {
                // Release queues the writes held together once they are all in; Dispose waits for this.
                Monitor.PulseAll(Gate);
                return;
            }

            batch = TakeWaiting();
            _inTurn = true;
        }

        _statistics.CommitsOnThread++;
        Commit(batch);
        bool queue;
        lock (Gate)
        {
            _inTurn = false;
            Monitor.PulseAll(Gate);
            queue = TurnIsDue();
        }

        if (queue)
        {
            QueueTurn();
        }
    }

    /// <inheritdoc/>
    protected override bool OnWaiting() => TurnIsDue();

    /// <inheritdoc/>
    protected override void HandOn() => QueueTurn();

    /// <summary>Under the gate: whether writes wait with no hold open and no turn queued or under way; if so, marks a turn queued.</summary>
    private bool TurnIsDue()
    {
        var due = !_queued && !_inTurn && Held == 0 && Waiting > 0 && !Stopping;
        _queued |= due;
        return due;
    }

    private void QueueTurn()
    {
        if (!_pool.TryEnqueue(this))
        {
            // The pool stopped (its host is shutting down): the turn runs here rather than leave the writes waiting.
            CommitTurn();
        }
    }
}
