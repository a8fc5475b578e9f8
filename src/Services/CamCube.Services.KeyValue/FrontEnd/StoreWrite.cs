using CamCube.Memcached;
using CamCube.Services.Reliable;

namespace CamCube.Services.KeyValue.FrontEnd;

/// <summary>
/// A connection's reusable set: an unconditional put through the node's loop with the <see cref="StoreSet"/>
/// it keeps (no task of its own), its answer continuing on the connection's receiving thread when it has
/// one (<see cref="ReceiveThreadScheduler"/>), else on the thread pool; never on the node's loop. A set
/// so costs the client's thread one wake-up, not a hand-off to a pool worker.
/// </summary>
internal sealed class StoreWrite : ReusableRequest<Key, StoreWriteStatus>, ISetOutcome
{
    private readonly ReceiveThreadScheduler? _scheduler;

    /// <summary>Creates a set whose answers continue on <paramref name="scheduler"/>'s thread, or on the thread pool if null.</summary>
    public StoreWrite(ReceiveThreadScheduler? scheduler)
    {
        _scheduler = scheduler;
        Set = new StoreSet(this);
    }

    /// <summary>Gets the set it asks the store with.</summary>
    public StoreSet Set { get; }

    /// <summary>Gets the client's answer, once it ended.</summary>
    public KeyValueReply Reply { get; private set; } = KeyValueReply.Stored;

    /// <summary>Prepares the next set: <paramref name="item"/> (kept, not copied) under <paramref name="key"/>.</summary>
    public void Prepare(Key key, byte[] item)
    {
        Prepare(in key);
        Reply = KeyValueReply.Stored;
        Set.Prepare(key, item);
    }

    /// <summary>Ends the set before it reached the store, with <paramref name="reply"/>.</summary>
    public void Refuse(KeyValueReply reply)
    {
        Reply = reply;
        Complete(StoreWriteStatus.Failed);
    }

    /// <inheritdoc/>
    public void Written(WriteOutcome outcome)
    {
        // An unconditional put that a primary served is written.
        Reply = outcome.Succeeded ? KeyValueReply.Stored : KeyValueReply.NotStored;
        Complete(outcome.Succeeded ? StoreWriteStatus.Written : StoreWriteStatus.Failed);
    }

    /// <inheritdoc/>
    public void Failed(Exception error)
    {
        Reply = KeyValueReply.StoreFailed(error is KeyValueStoreException failure ? failure.Reason : KeyValueFailure.Shutdown);
        Complete(StoreWriteStatus.Failed);
    }

    /// <inheritdoc/>
    protected override void OnAwaiting() => _scheduler?.Expect();

    /// <inheritdoc/>
    protected override void Dispatch(Action<object?> continuation, object? state) => ReceiveThreadScheduler.Dispatch(_scheduler, continuation, state);
}
