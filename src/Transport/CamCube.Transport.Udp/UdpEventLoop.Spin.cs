namespace CamCube.Transport.Udp;

/// <summary>
/// The loop's bounded spin: after a turn that sent a datagram, the loop watches its socket and
/// queue for a short while before it blocks, because a reply is likely to come soon.
/// </summary>
public sealed partial class UdpEventLoop
{
    private long _spinTicks;
    private bool _sentSinceWait;
    private long _spins;
    private long _spinsAnswered;
    private long _spinsAnsweredByDatagram;

    /// <summary>
    /// Gets or sets how long the loop watches its socket and queue, after a turn in which its
    /// transport sent a datagram, before it blocks (zero, the default: it blocks at once). A
    /// datagram that arrives meanwhile is read with no wake-up of a sleeping thread (several to
    /// tens of microseconds each on a virtual machine's idle CPU, on each side of a round trip); the price
    /// is CPU, at most this long per datagram sent, and nothing while the node sends nothing (an
    /// idle node only spins after its heartbeats). Between looks the loop yields its CPU to any
    /// other thread that is ready to run.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is negative or longer than <see cref="SpinAfterSendMax"/>.</exception>
    public TimeSpan SpinAfterSend
    {
        get => TimeSpan.FromSeconds((double)Volatile.Read(ref _spinTicks) / TimeProvider.TimestampFrequency);
        set
        {
            ArgumentOutOfRangeException.ThrowIfLessThan(value, TimeSpan.Zero);
            ArgumentOutOfRangeException.ThrowIfGreaterThan(value, SpinAfterSendMax);
            Volatile.Write(ref _spinTicks, (long)(value.TotalSeconds * TimeProvider.TimestampFrequency));
        }
    }

    /// <summary>The longest <see cref="SpinAfterSend"/>: 1 ms (a timer that falls due while the loop spins fires when the spin ends, at most this late).</summary>
    public static TimeSpan SpinAfterSendMax => TimeSpan.FromMilliseconds(1);

    /// <summary>Gets how many times the loop spun after a send before blocking.</summary>
    public long Spins => Interlocked.Read(ref _spins);

    /// <summary>Gets how many of those spins ended with a datagram or posted work (not blocked).</summary>
    public long SpinsAnswered => Interlocked.Read(ref _spinsAnswered);

    /// <summary>Gets how many of those spins ended with a datagram waiting on the socket (the rest of <see cref="SpinsAnswered"/> ended with posted work).</summary>
    internal long SpinsAnsweredByDatagram => Interlocked.Read(ref _spinsAnsweredByDatagram);

    /// <summary>Tells the loop that its transport sent a datagram in this turn (on the loop thread), so it may spin before it blocks.</summary>
    internal void NoteSent() => _sentSinceWait = true;

    /// <summary>
    /// Spins for up to <see cref="SpinAfterSend"/> if this turn sent a datagram: returns true as
    /// soon as a datagram waits on <paramref name="socket"/> (<paramref name="datagramWaiting"/>)
    /// or work is posted, false when the spin is off, was not earned, or ran out (then the loop
    /// blocks as before).
    /// </summary>
    private bool SpinForReply(System.Net.Sockets.Socket socket, out bool datagramWaiting)
    {
        datagramWaiting = false;
        var spinTicks = Volatile.Read(ref _spinTicks);
        if (!_sentSinceWait || spinTicks == 0)
        {
            return false;
        }

        _sentSinceWait = false;
        Interlocked.Increment(ref _spins);
        var deadline = TimeProvider.GetTimestamp() + spinTicks;
        do
        {
            datagramWaiting = socket.Available > 0;
            if (datagramWaiting || HasQueuedWork())
            {
                Interlocked.Increment(ref _spinsAnswered);
                if (datagramWaiting)
                {
                    Interlocked.Increment(ref _spinsAnsweredByDatagram);
                }

                return true;
            }

            // Another thread that is ready to run (the neighbour's loop on a shared core, or
            // the work of the rest of the host) gets the CPU first.
            Thread.Yield();
        }
        while (TimeProvider.GetTimestamp() < deadline);

        return false;
    }

    private bool HasQueuedWork()
    {
        lock (_gate)
        {
            return _queue.Count > 0 || _stopping;
        }
    }
}
