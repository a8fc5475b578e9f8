namespace CamCube.Services.Reliable;

/// <summary>A request used once and answered through a task, for callers off the hot path; a subclass turns the answer into <typeparamref name="TResult"/>.</summary>
/// <typeparam name="TCall">What the service is asked.</typeparam>
/// <typeparam name="TStatus">The outcome the service answers with.</typeparam>
/// <typeparam name="TResult">What the task completes with.</typeparam>
public abstract class TaskRequest<TCall, TStatus, TResult> : OutstandingRequest<TCall, TStatus>
{
    private readonly TaskCompletionSource<TResult> _completion = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private byte[] _value = [];

    /// <summary>Creates the request of <paramref name="call"/>.</summary>
    protected TaskRequest(TCall call) => Call = call;

    /// <summary>Gets the task; its continuations run asynchronously, never on the node's loop inside the completion.</summary>
    public Task<TResult> Task => _completion.Task;

    /// <summary>Builds the task's result from the outcome and the answered value (an array of its own, which the result may keep).</summary>
    /// <param name="status">The outcome.</param>
    /// <param name="value">The answered value, exactly its length; empty if none came.</param>
    /// <returns>The result.</returns>
    protected abstract TResult Result(TStatus status, byte[] value);

    /// <inheritdoc/>
    protected override Span<byte> ResponseBuffer(int length)
    {
        if (_value.Length != length)
        {
            _value = new byte[length];
        }

        return _value;
    }

    /// <inheritdoc/>
    protected override void OnCompleted() => _completion.TrySetResult(Result(Status, _value));
}
