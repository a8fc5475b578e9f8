using CamCube.Packets;
using CamCube.Transport;

namespace CamCube.Benchmarks.Udp;

/// <summary>Runs an action on an event loop and waits for it (benchmark setup and cleanup only; it allocates).</summary>
internal sealed class LoopCall(Action action) : ILoopWork
{
    private readonly ManualResetEventSlim _done = new();
    private Exception? _error;

    public static void Run(IEventLoop loop, Action action)
    {
        var call = new LoopCall(action);
        loop.Post(call, 0, 0, null);
        call._done.Wait();
        call._done.Dispose();
        if (call._error is { } error)
        {
            throw new InvalidOperationException("The call on the loop failed.", error);
        }
    }

    public void Execute(int code, int argument, Packet? packet)
    {
        try
        {
            action();
        }
#pragma warning disable CA1031 // The error is handed to the waiting thread.
        catch (Exception ex)
        {
            _error = ex;
        }
#pragma warning restore CA1031
        finally
        {
            _done.Set();
        }
    }
}
