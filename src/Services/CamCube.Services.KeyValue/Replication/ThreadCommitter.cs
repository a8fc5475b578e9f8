using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue.Replication;

/// <summary>
/// Commits on a thread of its own, so the node's loop routes and answers while a commit waits for
/// the disk: the writes added while one commit runs wait together and share the next one, so
/// batches grow with the load. With a loop to post to, a turn's writes that find the thread idle
/// are committed on the loop at the end of the turn instead (at most <see cref="OnLoopWritesMax"/>
/// of them): a lone write then costs no hand-over to the thread and back. A waiting task completes
/// on the committing thread; its awaiter on the loop resumes there (the loop's synchronisation
/// context posts it back), so this thread touches only the queue and the storage. The queue holds
/// at most <c>writesMax</c> writes; past that a write is refused.
/// </summary>
internal sealed class ThreadCommitter : QueueingCommitter
{
    /// <summary>The most writes a commit on the loop holds; a larger batch goes to the thread, so the loop never waits for a long commit.</summary>
    public const int OnLoopWritesMax = 4;

    private readonly INodeContext? _loop;
    private readonly KeyValueStatistics _statistics;
    private readonly Thread _thread;
    private bool _threadAsked;
    private bool _threadCommitting;
    private bool _loopPosted;

    /// <summary>Starts the committer's thread.</summary>
    /// <param name="storage">Where the writes go.</param>
    /// <param name="writesMax">How many writes may wait, beside the commit under way.</param>
    /// <param name="name">Whose committer this is, for the thread's name and errors (the node's coordinate).</param>
    /// <param name="statistics">Where the commits are counted, on the loop and on the thread.</param>
    /// <param name="loop">The node whose loop adds the writes and commits a turn's few when the thread is idle; null: every commit on the thread.</param>
    public ThreadCommitter(IKeyValueStorage storage, int writesMax, string name, KeyValueStatistics statistics, INodeContext? loop = null)
        : base(storage, writesMax, name)
    {
        _loop = loop;
        _statistics = statistics;
        _thread = new Thread(Run) { IsBackground = true, Name = $"kv commit {name}" };
        _thread.Start();
    }

    /// <summary>Commits what waits, then stops the thread and waits for it.</summary>
    public override void Dispose()
    {
        lock (Gate)
        {
            if (Stopping)
            {
                return;
            }

            Stopping = true;
            Monitor.PulseAll(Gate);
        }

        _thread.Join();
    }

    /// <inheritdoc/>
    protected override bool OnWaiting() => Schedule();

    /// <inheritdoc/>
    protected override void HandOn() => PostToLoop();

    /// <summary>Decides, under the gate, who commits what waits: true to post a commit on the loop, else the thread was asked (or already was).</summary>
    private bool Schedule()
    {
        if (_threadAsked || _loopPosted)
        {
            return false;
        }

        if (_loop is not null && !_threadCommitting && Waiting <= OnLoopWritesMax)
        {
            _loopPosted = true;
            return true;
        }

        AskThread();
        return false;
    }

    private void AskThread()
    {
        _threadAsked = true;
        Monitor.Pulse(Gate);
    }

    private void PostToLoop()
    {
        // Posted twice over: the frames the turn's work queued (a write's accepts) leave in work items posted meanwhile, so they go before the loop waits for the disk.
        if (!_loop!.TryPost(static state => ((ThreadCommitter)state!).PostCommitAfterTheTurnsSends(), this))
        {
            FallBackToThread();
        }
    }

    private void PostCommitAfterTheTurnsSends()
    {
        if (!_loop!.TryPost(static state => ((ThreadCommitter)state!).CommitOnLoop(), this))
        {
            FallBackToThread();
        }
    }

    private void FallBackToThread()
    {
        lock (Gate)
        {
            _loopPosted = false;
            AskThread();
        }
    }

    /// <summary>At the end of the loop's turn: commits the turn's writes here when they are few and the thread is idle, else hands them to the thread.</summary>
    private void CommitOnLoop()
    {
        CommitBatch batch;
        lock (Gate)
        {
            _loopPosted = false;
            if (Waiting == 0 || Held > 0)
            {
                // A hold began after the post: its Release schedules the writes.
                return;
            }

            if (Stopping || _threadCommitting || _threadAsked || Waiting > OnLoopWritesMax)
            {
                if (!_threadAsked)
                {
                    AskThread();
                }

                return;
            }

            // The thread is idle and the loop adds every write, so nothing else commits until this returns.
            batch = TakeWaiting();
        }

        _statistics.CommitsOnLoop++;
        Commit(batch);
    }

    private void Run()
    {
        while (true)
        {
            CommitBatch batch;
            bool stop;
            lock (Gate)
            {
                _threadCommitting = false;
                while (!_threadAsked && !Stopping)
                {
                    Monitor.Wait(Gate);
                }

                _threadAsked = false;
                if (Held > 0 && !Stopping)
                {
                    // Release asks again once the writes held together are all in.
                    continue;
                }

                batch = TakeWaiting();
                stop = Stopping;
                _threadCommitting = true;
            }

            if (batch.Count > 0)
            {
                // Only this thread writes the count; the loop may read it a commit late.
                _statistics.CommitsOnThread++;
            }

            Commit(batch);
            if (stop)
            {
                return;
            }
        }
    }
}
