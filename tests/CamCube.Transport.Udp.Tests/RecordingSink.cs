using CamCube.Packets;

namespace CamCube.Transport.Udp.Tests;

/// <summary>A sink that records what a transport tells it and lets a test wait for a condition on it.</summary>
internal sealed class RecordingSink : ITransportSink
{
    private readonly object _gate = new();
    private readonly List<ReceivedFrame> _frames = [];
    private readonly int[] _roomCounts = new int[LinkDirections.Count];
    private int _counted;

    /// <summary>Gets or sets what runs on the loop when a link reports room (after it is counted).</summary>
    public Action<LinkDirection>? OnRoom { get; set; }

    /// <summary>Gets or sets what runs on the loop after a received frame is recorded (a reply sent from here leaves in the same turn).</summary>
    public Action<LinkDirection, byte[]>? OnFrame { get; set; }

    /// <summary>Gets or sets whether received frames are released at once (only their bytes are kept).</summary>
    public bool ReleaseFrames { get; set; } = true;

    /// <summary>Gets or sets whether the bytes of received frames are kept (or only counted).</summary>
    public bool KeepBytes { get; set; } = true;

    /// <summary>Gets or sets whether received frames are only released and counted, allocating nothing (no record of them is kept).</summary>
    public bool CountOnly { get; set; }

    public int FrameCount
    {
        get
        {
            lock (_gate)
            {
                return _frames.Count + _counted;
            }
        }
    }

    public long FrameBytes
    {
        get
        {
            lock (_gate)
            {
                long sum = 0;
                foreach (var f in _frames)
                {
                    sum += f.Bytes.Length;
                }

                return sum;
            }
        }
    }

    public ReceivedFrame[] Frames
    {
        get
        {
            lock (_gate)
            {
                return [.. _frames];
            }
        }
    }

    public int RoomCount(LinkDirection link)
    {
        lock (_gate)
        {
            return _roomCounts[(int)link];
        }
    }

    public void OnFrameReceived(LinkDirection link, Packet frame)
    {
        if (CountOnly)
        {
            frame.Release();
            lock (_gate)
            {
                _counted++;
                Monitor.PulseAll(_gate);
            }

            return;
        }

        var bytes = KeepBytes ? frame.Frame.ToArray() : [];
        if (ReleaseFrames)
        {
            frame.Release();
        }

        lock (_gate)
        {
            _frames.Add(new ReceivedFrame(link, bytes));
            Monitor.PulseAll(_gate);
        }

        OnFrame?.Invoke(link, bytes);
    }

    public void OnLinkRoom(LinkDirection link)
    {
        lock (_gate)
        {
            _roomCounts[(int)link]++;
            Monitor.PulseAll(_gate);
        }

        OnRoom?.Invoke(link);
    }

    public void OnLinkStatus(LinkDirection link, bool up)
    {
    }

    /// <summary>Waits until <paramref name="condition"/> holds, re-checking at every event; false on timeout.</summary>
    public bool WaitFor(Func<RecordingSink, bool> condition, TimeSpan timeout)
    {
        var deadline = TimeProvider.System.GetTimestamp() + (long)(timeout.TotalSeconds * TimeProvider.System.TimestampFrequency);
        lock (_gate)
        {
            while (!condition(this))
            {
                var remaining = deadline - TimeProvider.System.GetTimestamp();
                if (remaining <= 0)
                {
                    return false;
                }

                Monitor.Wait(_gate, TimeSpan.FromSeconds((double)remaining / TimeProvider.System.TimestampFrequency));
            }

            return true;
        }
    }
}

/// <summary>A frame as the sink saw it.</summary>
internal sealed record ReceivedFrame(LinkDirection Link, byte[] Bytes);
