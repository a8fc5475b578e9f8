using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue.Replication;

/// <summary>
/// A committer whose writes wait in a bounded queue, under a lock, for a commit off the loop (a
/// thread of the server's own, or a pool's): the queue, its limit, the refusals and the holds; the
/// subclass says who commits what waits.
/// </summary>
internal abstract class QueueingCommitter : Committer
{
    private readonly IKeyValueStorage _storage;
    private readonly int _writesMax;
    private readonly Stack<CommitBatch> _spares = new();
    private CommitBatch _filling = new();
    private Task _last = Task.CompletedTask;

    /// <summary>Creates the queue.</summary>
    /// <param name="storage">Where the writes go.</param>
    /// <param name="writesMax">How many writes may wait, beside the commit under way.</param>
    /// <param name="name">Whose committer this is, for errors (the node's coordinate).</param>
    protected QueueingCommitter(IKeyValueStorage storage, int writesMax, string name)
    {
        _storage = storage;
        _writesMax = writesMax;
        Name = name;
    }

    /// <summary>Gets whose committer this is.</summary>
    protected string Name { get; }

    /// <summary>Gets the lock over the queue and the subclass's state.</summary>
    protected object Gate { get; } = new();

    /// <summary>Gets how many writes wait; read under <see cref="Gate"/>.</summary>
    protected int Waiting => _filling.Count;

    /// <summary>Gets or sets a value indicating whether the committer stopped taking writes; under <see cref="Gate"/>.</summary>
    protected bool Stopping { get; set; }

    /// <summary>Gets how many holds are open (<see cref="Hold"/>); read under <see cref="Gate"/>.</summary>
    protected int Held { get; private set; }

    /// <inheritdoc/>
    public override bool HasRoom
    {
        get
        {
            lock (Gate)
            {
                return _filling.Count < _writesMax;
            }
        }
    }

    /// <inheritdoc/>
    public override Task<bool> Add(StorageWrite write)
    {
        Task<bool> kept;
        bool scheduled;
        lock (Gate)
        {
            if (Stopping)
            {
                return Task.FromException<bool>(new ObjectDisposedException(GetType().Name, $"The store at {Name} stopped before the write was committed."));
            }

            if (_filling.Count >= _writesMax)
            {
                return Task.FromException<bool>(new InvalidOperationException($"The store's commit queue at {Name} holds {_writesMax} writes (KeyValueServiceOptions.CommitQueueWritesMax): the disk is behind, the write is refused."));
            }

            kept = _filling.Add(write);
            _last = kept;
            scheduled = Held == 0 && OnWaiting();
        }

        if (scheduled)
        {
            HandOn();
        }

        return kept;
    }

    /// <inheritdoc/>
    public override void Hold()
    {
        lock (Gate)
        {
            Held++;
        }
    }

    /// <inheritdoc/>
    public override void Release()
    {
        bool scheduled;
        lock (Gate)
        {
            scheduled = --Held == 0 && Waiting > 0 && OnWaiting();
        }

        if (scheduled)
        {
            HandOn();
        }
    }

    /// <inheritdoc/>
    public override async Task FlushAsync()
    {
        Task last;
        lock (Gate)
        {
            last = _last;
        }

        // The writes' own tasks tell whether their commit failed; a flush only waits for them.
        await last.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
    }

    /// <summary>Under <see cref="Gate"/>: takes the waiting writes for a commit, leaving an empty queue.</summary>
    protected CommitBatch TakeWaiting()
    {
        var taken = _filling;
        _filling = _spares.Count > 0 ? _spares.Pop() : new CommitBatch();
        return taken;
    }

    /// <summary>Commits a batch taken by <see cref="TakeWaiting"/> (outside the lock), then keeps it for reuse.</summary>
    protected void Commit(CommitBatch batch)
    {
        batch.CommitTo(_storage);
        lock (Gate)
        {
            _spares.Push(batch);
        }
    }

    /// <summary>Under <see cref="Gate"/>, when writes wait and no hold is open: whether <see cref="HandOn"/> must run once the lock is let go.</summary>
    protected abstract bool OnWaiting();

    /// <summary>Outside the lock, when <see cref="OnWaiting"/> said so: hands the waiting writes on.</summary>
    protected abstract void HandOn();
}
