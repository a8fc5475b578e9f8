using CamCube.Packets;
using CamCube.Transport;

namespace CamCube.Benchmarks.Udp;

/// <summary>The receiving node's side of <see cref="UdpTransportBenchmarks"/>: counts and releases frames, and wakes the benchmark thread when a count is reached.</summary>
internal sealed class UdpCountingSink : ITransportSink, IDisposable
{
    private readonly ManualResetEventSlim _reached = new();
    private long _received;
    private long _target = long.MaxValue;

    public void OnFrameReceived(LinkDirection link, Packet frame)
    {
        frame.Release();
        if (Interlocked.Increment(ref _received) >= Volatile.Read(ref _target))
        {
            _reached.Set();
        }
    }

    public void OnLinkRoom(LinkDirection link)
    {
    }

    public void OnLinkStatus(LinkDirection link, bool up)
    {
    }

    /// <summary>Blocks until <paramref name="target"/> frames have arrived in all (from another thread than the loop).</summary>
    public void WaitFor(long target)
    {
        Volatile.Write(ref _target, target);
        while (Volatile.Read(ref _received) < target)
        {
            _reached.Wait();
            _reached.Reset();
        }
    }

    public void Dispose() => _reached.Dispose();
}
