namespace CamCube.Runtime.Loops;

/// <summary>
/// A <see cref="TimeProvider"/> whose time moves only when told to. Timers fire in due order,
/// ties in creation order, on the thread that moves the time. For tests and in-memory cubes.
/// </summary>
public sealed class ManualTimeProvider : TimeProvider
{
    private readonly Lock _gate = new();
    private readonly PriorityQueue<ManualTimer, (long Due, long Sequence)> _due = new();
    private long _nowTicks;
    private long _sequence;

    /// <summary>Creates a clock that starts at <paramref name="start"/> (default: 2026-01-01 UTC).</summary>
    public ManualTimeProvider(DateTimeOffset? start = null)
    {
        Start = start ?? new DateTimeOffset(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);
    }

    /// <summary>Gets the wall-clock time at which this clock started.</summary>
    public DateTimeOffset Start { get; }

    /// <summary>Gets the time elapsed since <see cref="Start"/>.</summary>
    public TimeSpan Elapsed => TimeSpan.FromTicks(Volatile.Read(ref _nowTicks));

    /// <inheritdoc/>
    public override DateTimeOffset GetUtcNow() => Start + Elapsed;

    /// <inheritdoc/>
    public override long GetTimestamp() => Volatile.Read(ref _nowTicks);

    /// <inheritdoc/>
    public override long TimestampFrequency => TimeSpan.TicksPerSecond;

    /// <summary>Gets when the next timer is due, or null if none is armed.</summary>
    public TimeSpan? NextDue
    {
        get
        {
            lock (_gate)
            {
                while (_due.TryPeek(out var timer, out var priority))
                {
                    if (timer.IsArmedFor(priority.Sequence))
                    {
                        return TimeSpan.FromTicks(priority.Due);
                    }

                    _due.Dequeue();
                }

                return null;
            }
        }
    }

    /// <summary>Moves the time to <paramref name="elapsed"/> since start, firing every timer due by then, in order.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The time would move backwards.</exception>
    public void AdvanceTo(TimeSpan elapsed)
    {
        if (elapsed.Ticks < Volatile.Read(ref _nowTicks))
        {
            throw new ArgumentOutOfRangeException(nameof(elapsed), elapsed, $"Time cannot go back from {Elapsed}.");
        }

        while (TryTakeDue(elapsed.Ticks, out var timer))
        {
            timer.Fire();
        }

        Volatile.Write(ref _nowTicks, elapsed.Ticks);
    }

    /// <summary>Moves the time forward by <paramref name="delta"/>, firing timers due on the way.</summary>
    public void Advance(TimeSpan delta) => AdvanceTo(Elapsed + delta);

    /// <inheritdoc/>
    public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
    {
        ArgumentNullException.ThrowIfNull(callback);
        var timer = new ManualTimer(this, callback, state);
        timer.Change(dueTime, period);
        return timer;
    }

    private bool TryTakeDue(long untilTicks, out ManualTimer timer)
    {
        lock (_gate)
        {
            while (_due.TryPeek(out timer!, out var priority))
            {
                if (!timer.IsArmedFor(priority.Sequence))
                {
                    _due.Dequeue();
                    continue;
                }

                if (priority.Due > untilTicks)
                {
                    return false;
                }

                _due.Dequeue();
                Volatile.Write(ref _nowTicks, Math.Max(_nowTicks, priority.Due));
                timer.Disarm(priority.Due);
                return true;
            }

            return false;
        }
    }

    private long Schedule(ManualTimer timer, long dueTicks)
    {
        lock (_gate)
        {
            var sequence = ++_sequence;
            _due.Enqueue(timer, (dueTicks, sequence));
            return sequence;
        }
    }

    private sealed class ManualTimer(ManualTimeProvider owner, TimerCallback callback, object? state) : ITimer
    {
        private long _armedSequence;
        private long _periodTicks;

        public bool IsArmedFor(long sequence) => Volatile.Read(ref _armedSequence) == sequence;

        public void Disarm(long firedAtTicks)
        {
            Volatile.Write(ref _armedSequence, 0);
            if (_periodTicks > 0)
            {
                Volatile.Write(ref _armedSequence, owner.Schedule(this, firedAtTicks + _periodTicks));
            }
        }

        public void Fire() => callback(state);

        public bool Change(TimeSpan dueTime, TimeSpan period)
        {
            Volatile.Write(ref _armedSequence, 0);
            _periodTicks = period == Timeout.InfiniteTimeSpan ? 0 : period.Ticks;
            if (dueTime != Timeout.InfiniteTimeSpan)
            {
                Volatile.Write(ref _armedSequence, owner.Schedule(this, owner.GetTimestamp() + Math.Max(0, dueTime.Ticks)));
            }

            return true;
        }

        public void Dispose()
        {
            _periodTicks = 0;
            Volatile.Write(ref _armedSequence, 0);
        }

        public ValueTask DisposeAsync()
        {
            Dispose();
            return ValueTask.CompletedTask;
        }
    }
}
