namespace CamCube.Transport.Udp;

/// <summary>
/// A timer of a <see cref="UdpEventLoop"/>'s clock: its callback runs on the loop's thread. Its
/// schedule is kept by the loop under the loop's lock; a change makes older heap entries stale.
/// </summary>
internal sealed class UdpEventLoopTimer(UdpEventLoop loop, TimerCallback callback, object? state) : ITimer, ILoopWork
{
    private static readonly TimeSpan s_longest = TimeSpan.FromMilliseconds(uint.MaxValue - 1);

    public TimerCallback Callback { get; } = callback;

    public object? State { get; } = state;

    /// <summary>Gets or sets the schedule's version; heap entries of older versions are stale (loop lock).</summary>
    public long Version { get; set; }

    /// <summary>Gets or sets whether the heap holds an entry of the current version (loop lock).</summary>
    public bool Scheduled { get; set; }

    /// <summary>Gets or sets the period in timestamp ticks, or 0 for a one-shot timer (loop lock).</summary>
    public long PeriodTicks { get; set; }

    public bool Disposed { get; set; }

    /// <summary>Checks times as <see cref="TimeProvider.CreateTimer"/> does.</summary>
    public static void Validate(TimeSpan dueTime, TimeSpan period)
    {
        if ((dueTime < TimeSpan.Zero && dueTime != Timeout.InfiniteTimeSpan) || dueTime > s_longest)
        {
            throw new ArgumentOutOfRangeException(nameof(dueTime), dueTime, "A timer's due time is zero or more, or infinite.");
        }

        if ((period < TimeSpan.Zero && period != Timeout.InfiniteTimeSpan) || period > s_longest)
        {
            throw new ArgumentOutOfRangeException(nameof(period), period, "A timer's period is zero or more, or infinite.");
        }
    }

    public bool Change(TimeSpan dueTime, TimeSpan period)
    {
        Validate(dueTime, period);
        return loop.ChangeTimer(this, dueTime, period);
    }

    public void Dispose() => loop.DisposeTimer(this);

    /// <summary>Runs the callback (on the loop, when the timer is due).</summary>
    public void Execute(int code, int argument, Packets.Packet? packet) => Callback(State);

    public ValueTask DisposeAsync()
    {
        Dispose();
        return ValueTask.CompletedTask;
    }
}
