namespace CamCube.Runtime.Posting;

/// <summary>
/// A call another thread awaits (<see cref="Services.INodeContext.InvokeAsync{T}(Func{T})"/> and its
/// siblings): runs its function on the loop and completes the caller's task with the result, the
/// exception, or, for an asynchronous function, what the task it returned ends with (one task for
/// the caller, not a task of a task). The caller's continuations never run on the loop.
/// </summary>
/// <typeparam name="T">The result type.</typeparam>
internal sealed class PostedCall<T> : IAbandonable
{
    /// <summary>Runs a call posted with its state; cached, so a post allocates no delegate.</summary>
    public static readonly Action<object?> Run = static state => ((PostedCall<T>)state!).Execute();

    private readonly Func<T>? _function;
    private readonly Func<Task<T>>? _asyncFunction;
    private readonly Func<Task>? _asyncAction;
    private readonly TaskCompletionSource<T> _completion = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public PostedCall(Func<T> function) => _function = function;

    public PostedCall(Func<Task<T>> function) => _asyncFunction = function;

    public PostedCall(Func<Task> function) => _asyncAction = function;

    /// <summary>Gets the caller's task.</summary>
    public Task<T> Task => _completion.Task;

    /// <summary>The call could not be queued: the service is not on a node, or its mailbox is full.</summary>
    public void Refuse(string why) => _completion.TrySetException(new InvalidOperationException(why));

    /// <inheritdoc/>
    public void Abandon() => _completion.TrySetException(new ObjectDisposedException("service", "The service left its node before the call ran."));

    private void Execute()
    {
        try
        {
            if (_function is not null)
            {
                _completion.TrySetResult(_function());
                return;
            }

            Task inner = _asyncFunction is not null ? _asyncFunction() : _asyncAction!();
            if (inner is null)
            {
                _completion.TrySetException(new InvalidOperationException("The asynchronous function returned no task."));
                return;
            }

            inner.ContinueWith(static (task, state) => ((PostedCall<T>)state!).CompleteFrom(task), this, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
        }
#pragma warning disable CA1031 // The exception is handed to the caller's task.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            _completion.TrySetException(ex);
        }
    }

    private void CompleteFrom(Task task)
    {
        if (task.IsCanceled)
        {
            _completion.TrySetCanceled();
        }
        else if (task.Exception is { } exception)
        {
            _completion.TrySetException(exception.InnerExceptions);
        }
        else
        {
            _completion.TrySetResult(task is Task<T> typed ? typed.Result : default!);
        }
    }
}
