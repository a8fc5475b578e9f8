namespace CamCube.Experiments;

/// <summary>
/// Calls back at an exact average rate on a <see cref="TimeProvider"/>: the k-th call is due at
/// <c>start + k / rate</c>, and each timer is armed for the next due time (rounded up to a whole
/// tick), so rounding never accumulates into drift.
/// </summary>
internal sealed class Pacer
{
    private readonly TimeProvider _clock;
    private readonly double _intervalTimestampTicks;
    private readonly Action _onTick;
    private ITimer? _timer;
    private long _startTimestamp;
    private long _ticks;

    /// <summary>Creates a pacer of <paramref name="ratePerSecond"/> calls of <paramref name="onTick"/> per second.</summary>
    public Pacer(TimeProvider clock, double ratePerSecond, Action onTick)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(ratePerSecond);
        _clock = clock;
        _intervalTimestampTicks = clock.TimestampFrequency / ratePerSecond;
        _onTick = onTick;
    }

    /// <summary>Starts calling back, the first call after <paramref name="phase"/>.</summary>
    public void Start(TimeSpan phase)
    {
        _startTimestamp = _clock.GetTimestamp() + (long)(phase.TotalSeconds * _clock.TimestampFrequency);
        _ticks = 0;
        _timer ??= _clock.CreateTimer(static state => ((Pacer)state!).OnTimer(), this, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
        Arm();
    }

    /// <summary>Stops calling back.</summary>
    public void Stop()
    {
        _timer?.Dispose();
        _timer = null;
    }

    private void OnTimer()
    {
        if (_timer is null)
        {
            return;
        }

        _ticks++;
        _onTick();
        if (_timer is not null)
        {
            Arm();
        }
    }

    private void Arm()
    {
        var due = _startTimestamp + (long)Math.Ceiling(_ticks * _intervalTimestampTicks);
        var wait = Math.Max(0, due - _clock.GetTimestamp());
        var waitTicks = (long)Math.Ceiling(wait * (double)TimeSpan.TicksPerSecond / _clock.TimestampFrequency);
        _timer!.Change(TimeSpan.FromTicks(waitTicks), Timeout.InfiniteTimeSpan);
    }
}
