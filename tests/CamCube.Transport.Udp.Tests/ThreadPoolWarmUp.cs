using System.Runtime.CompilerServices;

namespace CamCube.Transport.Udp.Tests;

/// <summary>
/// The tests block test threads while they wait for conditions, and timers (the rate limit's)
/// call back on the thread pool; with two cores the pool would start a thread only every half
/// second or so, so it starts with enough threads.
/// </summary>
internal static class ThreadPoolWarmUp
{
    [ModuleInitializer]
    internal static void Initialize()
    {
        ThreadPool.GetMinThreads(out var workers, out var io);
        ThreadPool.SetMinThreads(Math.Max(workers, 32), Math.Max(io, 32));
    }
}
