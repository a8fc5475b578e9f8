using CamCube.Packets;

namespace CamCube.Transport.Udp.Tests;

/// <summary>Runs an action on an event loop and lets the test wait for it.</summary>
internal sealed class LoopAction : ILoopWork
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(10);
    private readonly Action _action;
    private readonly TaskCompletionSource _done = new(TaskCreationOptions.RunContinuationsAsynchronously);

    private LoopAction(Action action) => _action = action;

    /// <summary>Runs <paramref name="action"/> on <paramref name="loop"/> and waits for it to finish.</summary>
    public static void Run(IEventLoop loop, Action action)
    {
        var work = new LoopAction(action);
        loop.Post(work, 0, 0, null);
        if (!((IAsyncResult)work._done.Task).AsyncWaitHandle.WaitOne(s_timeout))
        {
            throw new TimeoutException("The event loop did not run the action within 10 s.");
        }

        work._done.Task.GetAwaiter().GetResult();
    }

    /// <summary>Runs <paramref name="function"/> on <paramref name="loop"/> and returns its result.</summary>
    public static T Run<T>(IEventLoop loop, Func<T> function)
    {
        T result = default!;
        Run(loop, () => { result = function(); });
        return result;
    }

    public void Execute(int code, int argument, Packet? packet)
    {
        try
        {
            _action();
            _done.SetResult();
        }
        catch (Exception ex)
        {
            _done.SetException(ex);
        }
    }
}
