namespace CamCube.Transport.Udp.Tests;

/// <summary>Runs an action on an event loop and lets the test wait for it.</summary>
internal static class LoopAction
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(10);

    /// <summary>Runs <paramref name="action"/> on <paramref name="loop"/> and waits for it to finish.</summary>
    public static void Run(IEventLoop loop, Action action) => Run(loop, () =>
    {
        action();
        return true;
    });

    /// <summary>Runs <paramref name="function"/> on <paramref name="loop"/> and returns its result.</summary>
    public static T Run<T>(IEventLoop loop, Func<T> function)
    {
        var task = loop.InvokeAsync(function);
        if (!((IAsyncResult)task).AsyncWaitHandle.WaitOne(s_timeout))
        {
            throw new TimeoutException("The event loop did not run the action within 10 s.");
        }

        return task.GetAwaiter().GetResult();
    }
}
