using System.Buffers;
using CamCube.Memcached;
using CamCube.Services.Reliable;

namespace CamCube.Services.Cache.FrontEnd;

/// <summary>
/// A connection's reusable request: allocation-free through the node's loop, its answer continuing
/// on the connection's receiving thread when it has one (<see cref="ReceiveThreadScheduler"/>), else
/// on the thread pool; never on the node's loop.
/// </summary>
internal sealed class FrontEndRequest(ReceiveThreadScheduler? scheduler) : ReusableRequest<CacheCall, CacheStatus>
{
    /// <summary>Prepares a keyed operation; <paramref name="key"/> and <paramref name="value"/> must stay valid until the answer.</summary>
    public void Prepare(CacheOperation operation, ReadOnlyMemory<byte> key, in ReadOnlySequence<byte> value = default, uint flags = 0, int expirationSeconds = 0, ulong casOrDelta = 0) =>
        Prepare(new CacheCall(operation, key, value, flags, expirationSeconds, casOrDelta));

    /// <summary>Prepares a flush_all.</summary>
    public void PrepareFlush(int delaySeconds) => Prepare(CacheCall.Flush(delaySeconds));

    /// <inheritdoc/>
    protected override void OnAwaiting() => scheduler?.Expect();

    /// <inheritdoc/>
    protected override void Dispatch(Action<object?> continuation, object? state) => ReceiveThreadScheduler.Dispatch(scheduler, continuation, state);
}
