using CamCube.Packets;
using CamCube.Transport;

namespace CamCube.Cli.Nodes;

/// <summary>Runs a function on a node's event loop from any thread and hands back its result (the control path, not the packet path).</summary>
internal static class LoopInvoker
{
    public static Task<T> InvokeAsync<T>(IEventLoop loop, Func<T> function)
    {
        var work = new Work<T>(function);
        loop.Post(work, 0, 0, null);
        return work.Completion.Task;
    }

    private sealed class Work<T>(Func<T> function) : ILoopWork
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
