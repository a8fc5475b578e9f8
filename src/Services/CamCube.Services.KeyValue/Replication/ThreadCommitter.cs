using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue.Replication;

/// <summary>
/// Commits on a thread of its own, so the node's loop routes and answers while a commit waits for
/// the disk: the writes added while one commit runs wait together and share the next one, so
/// batches grow with the load. A waiting task completes on this thread; its awaiter on the loop
/// resumes there (the loop's synchronisation context posts it back), so this thread touches only
/// the queue and the storage. The queue holds at most <c>writesMax</c> writes; past that a write is
/// refused.
/// </summary>
internal sealed class ThreadCommitter : Committer
{
    private readonly IKeyValueStorage _storage;
    private readonly int _writesMax;
    private readonly string _name;
    private readonly Lock _gate = new();
    private readonly SemaphoreSlim _signal = new(0);
    private readonly Thread _thread;
    private CommitBatch _filling = new();
    private CommitBatch _committing = new();
    private Task _last = Task.CompletedTask;
    private bool _stopping;

    /// <summary>Starts the committer's thread.</summary>
    /// <param name="storage">Where the writes go.</param>
    /// <param name="writesMax">How many writes may wait, beside the commit under way.</param>
    /// <param name="name">Whose committer this is, for the thread's name and errors (the node's coordinate).</param>
    public ThreadCommitter(IKeyValueStorage storage, int writesMax, string name)
    {
        _storage = storage;
        _writesMax = writesMax;
        _name = name;
        _thread = new Thread(Run) { IsBackground = true, Name = $"kv commit {name}" };
        _thread.Start();
    }

    /// <inheritdoc/>
    public override bool HasRoom
    {
        get
        {
            lock (_gate)
            {
                return _filling.Count < _writesMax;
            }
        }
    }

    /// <inheritdoc/>
    public override Task<bool> Add(StorageWrite write)
    {
        Task<bool> kept;
        lock (_gate)
        {
            if (_stopping)
            {
                return Task.FromException<bool>(new ObjectDisposedException(nameof(ThreadCommitter), $"The store at {_name} stopped before the write was committed."));
            }

            if (_filling.Count >= _writesMax)
            {
                return Task.FromException<bool>(new InvalidOperationException($"The store's commit queue at {_name} holds {_writesMax} writes (KeyValueServiceOptions.CommitQueueWritesMax): the disk is behind, the write is refused."));
            }

            kept = _filling.Add(write);
            _last = kept;
            if (_filling.Count > 1)
            {
                return kept;
            }
        }

        _signal.Release();
        return kept;
    }

    /// <inheritdoc/>
    public override Task FlushAsync()
    {
        lock (_gate)
        {
            return _last;
        }
    }

    /// <summary>Commits what waits, then stops the thread and waits for it.</summary>
    public override void Dispose()
    {
        lock (_gate)
        {
            if (_stopping)
            {
                return;
            }

            _stopping = true;
        }

        _signal.Release();
        _thread.Join();
        _signal.Dispose();
    }

    private void Run()
    {
        while (true)
        {
            _signal.Wait();
            CommitBatch batch;
            bool stop;
            lock (_gate)
            {
                (_filling, _committing) = (_committing, _filling);
                batch = _committing;
                stop = _stopping;
            }

            batch.CommitTo(_storage);
            if (stop)
            {
                return;
            }
        }
    }
}
