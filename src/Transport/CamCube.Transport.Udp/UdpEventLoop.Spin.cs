namespace CamCube.Transport.Udp;

/// <summary>
/// The loop's bounded spin: after a turn that sent a datagram, the loop watches its socket and
/// queue for a short while before it blocks, because a reply is likely to come soon. The spin
/// adapts to a shared host: when a yield between two looks gives the core to another thread for
/// longer than <see cref="ContendedYieldMicroseconds"/>, threads that are ready to run outnumber the
/// cores (27 nodes on 2 cores), and the spin only takes CPU from the work that would answer it; the
/// loop then stops the spin and skips the next spins, twice as many each time it finds the core
/// contended again (up to <see cref="SpinsSkippedAfterContentionMax"/>), until a spin runs uncontended.
/// </summary>
public sealed partial class UdpEventLoop
{
    /// <summary>A yield that keeps the core from the loop this long means another thread ran on it.</summary>
    private const int ContendedYieldMicroseconds = 20;
    private const int SpinsSkippedAfterContentionMin = 8;
    private const int SpinsSkippedAfterContentionMax = 1024;

    private long _spinTicks;
    private bool _sentSinceWait;
    private int _spinsToSkip;
    private int _spinsSkippedAfterContention;
    private long _spins;
    private long _spinsAnswered;
    private long _spinsAnsweredByDatagram;
    private long _spinsContended;
    private long _spinsSkipped;

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

    /// <summary>Gets how many spins ended early because a yield found the core contended (see the type's remarks).</summary>
    internal long SpinsContended => Interlocked.Read(ref _spinsContended);

    /// <summary>Gets how many spins the loop skipped after finding the core contended.</summary>
    internal long SpinsSkipped => Interlocked.Read(ref _spinsSkipped);

    /// <summary>Gets or sets how the loop gives up its CPU between two looks of a spin (tests stand in a yield that another thread holds long).</summary>
    internal Action YieldCpu { get; set; } = static () => Thread.Yield();

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
        if (_spinsToSkip > 0)
        {
            _spinsToSkip--;
            Interlocked.Increment(ref _spinsSkipped);
            return false;
        }

        Interlocked.Increment(ref _spins);
        var now = TimeProvider.GetTimestamp();
        var deadline = now + spinTicks;
        var contendedYieldTicks = TimeProvider.TimestampFrequency * ContendedYieldMicroseconds / 1_000_000;
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

                _spinsSkippedAfterContention = 0;
                return true;
            }

            // Another thread that is ready to run (the neighbour's loop on a shared core, or
            // the work of the rest of the host) gets the CPU first.
            var yielded = now;
            YieldCpu();
            now = TimeProvider.GetTimestamp();
            if (now - yielded > contendedYieldTicks)
            {
                // It did, for long: cores are short, and the spin would take CPU from the reply's sender.
                Interlocked.Increment(ref _spinsContended);
                _spinsSkippedAfterContention = Math.Clamp(_spinsSkippedAfterContention * 2, SpinsSkippedAfterContentionMin, SpinsSkippedAfterContentionMax);
                _spinsToSkip = _spinsSkippedAfterContention;
                return false;
            }
        }
        while (now < deadline);

        _spinsSkippedAfterContention = 0;
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
