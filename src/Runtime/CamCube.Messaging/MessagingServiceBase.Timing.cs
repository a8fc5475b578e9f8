namespace CamCube.Messaging;

/// <summary>Waiting on the node's clock, for handlers and callers that run on the node's loop.</summary>
public abstract partial class MessagingServiceBase
{
    /// <summary>
    /// Completes after <paramref name="delay"/> of the node's time (virtual in the simulator); a
    /// continuation that captured the loop's context resumes on the loop.
    /// </summary>
    /// <param name="delay">How long to wait.</param>
    /// <exception cref="InvalidOperationException">The service is not on a node.</exception>
    protected Task DelayAsync(TimeSpan delay)
    {
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        ITimer? timer = null;
        timer = Node.CreateTimer(
            () =>
            {
                timer?.Dispose();
                done.TrySetResult();
            },
            delay,
            Timeout.InfiniteTimeSpan);
        return done.Task;
    }
}
