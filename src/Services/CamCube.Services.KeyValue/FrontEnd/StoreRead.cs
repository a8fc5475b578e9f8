using CamCube.Memcached;
using CamCube.Services.Reliable;

namespace CamCube.Services.KeyValue.FrontEnd;

/// <summary>
/// A connection's reusable read of one key: through the node's loop with the <see cref="StoreGet"/> it
/// keeps (no task, no allocation in steady state), the value kept in a buffer of its own, and its answer
/// continuing on the connection's receiving thread when it has one (<see cref="ReceiveThreadScheduler"/>),
/// else on the thread pool; never on the node's loop.
/// </summary>
internal sealed class StoreRead : ReusableRequest<Key, StoreReadStatus>, IGetOutcome
{
    private readonly ReceiveThreadScheduler? _scheduler;

    /// <summary>Creates a read whose answers continue on <paramref name="scheduler"/>'s thread, or on the thread pool if null.</summary>
    public StoreRead(ReceiveThreadScheduler? scheduler)
    {
        _scheduler = scheduler;
        Get = new StoreGet(this);
    }

    /// <summary>Gets the get it asks the store with.</summary>
    public StoreGet Get { get; }

    /// <summary>Gets why the read failed, when <see cref="StoreReadStatus.Failed"/>.</summary>
    public Exception? Error { get; private set; }

    /// <summary>Prepares the next read, of <paramref name="key"/>.</summary>
    public void Prepare(Key key)
    {
        Prepare(in key);
        Error = null;
        Get.Prepare(key);
    }

    /// <inheritdoc/>
    public void Found(long version, ReadOnlySpan<byte> value)
    {
        AddResponseChunk(value.Length, 0, value, 0, (ulong)version, 0);
        Complete(StoreReadStatus.Found);
    }

    /// <inheritdoc/>
    public void Missing() => Complete(StoreReadStatus.Missing);

    /// <inheritdoc/>
    public void Failed(Exception error)
    {
        Error = error;
        Complete(StoreReadStatus.Failed);
    }

    /// <inheritdoc/>
    protected override void OnAwaiting() => _scheduler?.Expect();

    /// <inheritdoc/>
    protected override void Dispatch(Action<object?> continuation, object? state) => ReceiveThreadScheduler.Dispatch(_scheduler, continuation, state);
}
