using System.Buffers;
using System.Numerics;
using System.Threading.Tasks.Sources;
using CamCube.Memcached;

namespace CamCube.Services.Cache;

/// <summary>
/// A request a front-end connection reuses for one command after another, so a request through the
/// node's loop allocates nothing in steady state: it borrows the connection's key and value bytes,
/// keeps the answer's value in a buffer of its own, and is awaited as a <see cref="ValueTask{TResult}"/>
/// whose continuation runs on the connection's receiving thread when it has one
/// (<see cref="ReceiveThreadScheduler"/>), else on the thread pool; never on the node's loop. One use at a time: prepare,
/// hand to <see cref="CacheService.Execute"/>, await <see cref="Answer"/>, read the answer, <see cref="Recycle"/>.
/// </summary>
internal sealed class ReusableRequest : PendingRequest, IValueTaskSource<CacheStatus>, IValueTaskSource
{
    /// <summary>Answer buffers up to this size are kept for the next use; larger ones go back to the shared pool.</summary>
    private const int RetainedBufferBytesMax = 16 * 1024;
    private const int BufferBytesMin = 256;

    private static readonly Action<object?> s_dispatch = Dispatch;

    private readonly ReceiveThreadScheduler? _scheduler;

    // Continuations run inline on the loop only as far as Dispatch, which hands them to the scheduler.
    private ManualResetValueTaskSourceCore<CacheStatus> _core = new() { RunContinuationsAsynchronously = false };
    private Action<object?>? _continuation;
    private object? _continuationState;
    private byte[] _retained = [];
    private byte[]? _rented;
    private byte[] _buffer = [];

    /// <summary>Creates a request whose answers continue on the thread pool, or through <paramref name="scheduler"/> when given.</summary>
    public ReusableRequest(ReceiveThreadScheduler? scheduler = null) => _scheduler = scheduler;

    /// <summary>Gets the answer; await it once per use.</summary>
    public ValueTask<CacheStatus> Answer => new(this, _core.Version);

    /// <summary>Gets a task that completes with the answer (then read the status); await it or <see cref="Answer"/> once per use.</summary>
    public ValueTask Answered => new(this, _core.Version);

    /// <summary>Gets the answered value (a hit), valid until <see cref="Recycle"/>.</summary>
    public ReadOnlySpan<byte> ResponseValue => _buffer.AsSpan(0, ResponseLength);

    /// <summary>Prepares a keyed operation; <paramref name="key"/> and <paramref name="value"/> must stay valid until the answer.</summary>
    public void Prepare(CacheOperation operation, ReadOnlyMemory<byte> key, in ReadOnlySequence<byte> value = default, uint flags = 0, int expirationSeconds = 0, ulong casOrDelta = 0)
    {
        _core.Reset();
        ResetResponse();
        Operation = operation;
        Key = key;
        Value = value;
        Flags = flags;
        ExpirationSeconds = expirationSeconds;
        CasOrDelta = casOrDelta;
        FlushDelaySeconds = 0;
    }

    /// <summary>Prepares a flush_all.</summary>
    public void PrepareFlush(int delaySeconds)
    {
        Prepare(0, default);
        FlushDelaySeconds = delaySeconds;
    }

    /// <summary>Lets go of the borrowed bytes and of an answer buffer too large to keep, once the answer was used.</summary>
    public void Recycle()
    {
        Key = default;
        Value = default;
        if (_rented is { } rented)
        {
            ArrayPool<byte>.Shared.Return(rented);
            _rented = null;
            _buffer = _retained;
        }
    }

    /// <inheritdoc/>
    public CacheStatus GetResult(short token) => _core.GetResult(token);

    /// <inheritdoc/>
    void IValueTaskSource.GetResult(short token) => _core.GetResult(token);

    /// <inheritdoc/>
    public ValueTaskSourceStatus GetStatus(short token) => _core.GetStatus(token);

    /// <inheritdoc/>
    public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
    {
        // Noted before the registration: the answer may come at once, and is dispatched exactly once either way.
        _scheduler?.Expect();
        _continuation = continuation;
        _continuationState = state;
        _core.OnCompleted(s_dispatch, this, token, flags);
    }

    private static void Dispatch(object? state)
    {
        var request = (ReusableRequest)state!;
        var continuation = request._continuation!;
        var continuationState = request._continuationState;
        request._continuation = null;
        request._continuationState = null;
        if (request._scheduler is { } scheduler)
        {
            scheduler.Schedule(continuation, continuationState);
        }
        else
        {
            ThreadPool.UnsafeQueueUserWorkItem(continuation, continuationState, preferLocal: true);
        }
    }

    protected override Span<byte> ResponseBuffer(int length)
    {
        if (length <= RetainedBufferBytesMax)
        {
            if (_retained.Length < length)
            {
                _retained = new byte[Math.Max(BufferBytesMin, (int)BitOperations.RoundUpToPowerOf2((uint)length))];
            }

            _buffer = _retained;
        }
        else
        {
            if (_rented is null || _rented.Length < length)
            {
                if (_rented is not null)
                {
                    ArrayPool<byte>.Shared.Return(_rented);
                }

                _rented = ArrayPool<byte>.Shared.Rent(length);
            }

            _buffer = _rented;
        }

        return _buffer;
    }

    protected override void OnCompleted() => _core.SetResult(Status);
}
