using CamCube.Packets;

namespace CamCube.Transport;

/// <summary>Calls into an event loop from other threads: the control path (hosts, tools, tests), not the packet path.</summary>
public static class EventLoopExtensions
{
    /// <summary>
    /// Runs <paramref name="function"/> on <paramref name="loop"/> and hands back its result (or
    /// what it threw) through the task, whose continuations run off the loop. Allocates per call.
    /// </summary>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    public static Task<T> InvokeAsync<T>(this IEventLoop loop, Func<T> function)
    {
        ArgumentNullException.ThrowIfNull(loop);
        ArgumentNullException.ThrowIfNull(function);
        var call = new Call<T>(function);
        loop.Post(call, 0, 0, null);
        return call.Completion.Task;
    }

    private sealed class Call<T>(Func<T> function) : ILoopWork
    {
        public TaskCompletionSource<T> Completion { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public void Execute(int code, int argument, Packet? packet)
        {
            try
            {
                Completion.TrySetResult(function());
            }
#pragma warning disable CA1031 // The exception is handed to the caller's task.
            catch (Exception ex)
#pragma warning restore CA1031
            {
                Completion.TrySetException(ex);
            }
        }
    }
}
