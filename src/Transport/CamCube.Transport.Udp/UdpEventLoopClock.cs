namespace CamCube.Transport.Udp;

/// <summary>
/// The clock of a <see cref="UdpEventLoop"/>: real time as the system clock reads it, with timers
/// that the loop itself fires on its own thread, so a timer costs no thread wake-up of its own.
/// </summary>
internal sealed class UdpEventLoopClock(UdpEventLoop loop) : TimeProvider
{
    public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
    {
        ArgumentNullException.ThrowIfNull(callback);
        UdpEventLoopTimer.Validate(dueTime, period);
        var timer = new UdpEventLoopTimer(loop, callback, state);
        loop.ChangeTimer(timer, dueTime, period);
        return timer;
    }
}
