using System.Buffers;
using System.Numerics;
using System.Threading.Tasks.Sources;

namespace CamCube.Services.Reliable;

/// <summary>
/// A request an issuer (a front-end connection) reuses for one call after another, so a request
/// through the node's loop allocates nothing in steady state: its call may borrow the issuer's bytes,
/// it keeps the answer's value in a buffer of its own, and it is awaited as a <see cref="ValueTask{TResult}"/>
/// whose continuation never runs on the node's loop: <see cref="Dispatch"/> hands it to the thread pool, or
/// wherever a subclass sends it (the issuer's receiving thread). One use at a time:
/// <see cref="Prepare"/>, hand to the service, await <see cref="Answer"/> or <see cref="Answered"/>,
/// read the answer, <see cref="Recycle"/>.
/// </summary>
/// <typeparam name="TCall">What the service is asked.</typeparam>
/// <typeparam name="TStatus">The outcome the service answers with.</typeparam>
public class ReusableRequest<TCall, TStatus> : OutstandingRequest<TCall, TStatus>, IValueTaskSource<TStatus>, IValueTaskSource
{
    /// <summary>Answer buffers up to this size are kept for the next use; larger ones go back to the shared pool.</summary>
    public const int RetainedBufferBytesMax = 16 * 1024;

    private const int BufferBytesMin = 256;

    private static readonly Action<object?> s_dispatch = DispatchContinuation;

    // Continuations run inline on the loop only as far as Dispatch, which hands them on.
    private ManualResetValueTaskSourceCore<TStatus> _core = new() { RunContinuationsAsynchronously = false };
    private Action<object?>? _continuation;
    private object? _continuationState;
    private byte[] _retained = [];
    private byte[]? _rented;
    private byte[] _buffer = [];

    /// <summary>Gets the answer; await it once per use.</summary>
    public ValueTask<TStatus> Answer => new(this, _core.Version);

    /// <summary>Gets a task that completes with the answer (then read <see cref="OutstandingRequest{TCall, TStatus}.Status"/>); await it or <see cref="Answer"/> once per use.</summary>
    public ValueTask Answered => new(this, _core.Version);

    /// <summary>Gets the answered value, valid until <see cref="Recycle"/>.</summary>
    public ReadOnlySpan<byte> ResponseValue => _buffer.AsSpan(0, ResponseLength);

    /// <summary>Prepares the next use with <paramref name="call"/>, whose borrowed memory must stay valid until the answer.</summary>
    public void Prepare(in TCall call)
    {
        _core.Reset();
        ResetResponse();
        Call = call;
    }

    /// <summary>Lets go of the call (and what it borrows) and of an answer buffer too large to keep, once the answer was used.</summary>
    public void Recycle()
    {
        Call = default!;
        if (_rented is { } rented)
        {
            ArrayPool<byte>.Shared.Return(rented);
            _rented = null;
            _buffer = _retained;
        }
    }

    /// <inheritdoc/>
    public TStatus GetResult(short token) => _core.GetResult(token);

    /// <inheritdoc/>
    void IValueTaskSource.GetResult(short token) => _core.GetResult(token);

    /// <inheritdoc/>
    public ValueTaskSourceStatus GetStatus(short token) => _core.GetStatus(token);

    /// <inheritdoc/>
    public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
    {
        // Noted before the registration: the answer may come at once, and is dispatched exactly once either way.
        OnAwaiting();
        _continuation = continuation;
        _continuationState = state;
        _core.OnCompleted(s_dispatch, this, token, flags);
    }

    /// <summary>Called as the issuer begins to await, before the answer can be dispatched: a scheduler that must expect it is told here.</summary>
    protected virtual void OnAwaiting()
    {
    }

    /// <summary>Runs the awaiting continuation off the node's loop: on the thread pool, unless a subclass sends it elsewhere.</summary>
    /// <param name="continuation">The continuation.</param>
    /// <param name="state">Its state.</param>
    protected virtual void Dispatch(Action<object?> continuation, object? state) =>
        ThreadPool.UnsafeQueueUserWorkItem(continuation, state, preferLocal: true);

    /// <inheritdoc/>
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

    /// <inheritdoc/>
    protected override void OnCompleted() => _core.SetResult(Status);

    private static void DispatchContinuation(object? state)
    {
        var request = (ReusableRequest<TCall, TStatus>)state!;
        var continuation = request._continuation!;
        var continuationState = request._continuationState;
        request._continuation = null;
        request._continuationState = null;
        request.Dispatch(continuation, continuationState);
    }
}
