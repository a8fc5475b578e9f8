namespace CamCube.Transport.Udp;

/// <summary>The loop's timers: a heap of due times under the loop's lock, fired on the loop's thread.</summary>
public sealed partial class UdpEventLoop
{
    /// <summary>Stale heap entries (of timers changed or disposed since) tolerated before the heap is rebuilt without them.</summary>
    private const int StaleTimerEntriesMax = 1_024;

    /// <summary>The most timer callbacks a turn runs.</summary>
    private const int TimersPerTurnMax = 1_024;

    private readonly PriorityQueue<(UdpEventLoopTimer Timer, long Version), long> _timers = new();
    private readonly List<((UdpEventLoopTimer Timer, long Version) Entry, long Due)> _timerCompaction = [];
    private int _staleTimerEntries;

    /// <summary>Schedules <paramref name="timer"/> anew; returns false if it is disposed. Wakes the loop if another thread moved a timer.</summary>
    internal bool ChangeTimer(UdpEventLoopTimer timer, TimeSpan dueTime, TimeSpan period)
    {
        bool wakeBySocket;
        lock (_gate)
        {
            if (timer.Disposed)
            {
                return false;
            }

            Unschedule(timer);
            timer.PeriodTicks = period == Timeout.InfiniteTimeSpan || period == TimeSpan.Zero ? 0 : Math.Max(1, ToTicks(period));
            if (dueTime == Timeout.InfiniteTimeSpan)
            {
                return true;
            }

            timer.Scheduled = true;
            _timers.Enqueue((timer, timer.Version), TimeProvider.GetTimestamp() + ToTicks(dueTime));

            // A blocked loop waits for its earliest timer as it was when it blocked.
            wakeBySocket = !IsOnLoopThread && WakeLocked();
        }

        if (wakeBySocket)
        {
            SendWake();
        }

        return true;
    }

    internal void DisposeTimer(UdpEventLoopTimer timer)
    {
        lock (_gate)
        {
            timer.Disposed = true;
            Unschedule(timer);
        }
    }

    /// <summary>Runs the callbacks of the timers that are due, outside the lock.</summary>
    private void RunDueTimers()
    {
        var now = TimeProvider.GetTimestamp();
        for (var fired = 0; fired < TimersPerTurnMax; fired++)
        {
            UdpEventLoopTimer timer;
            lock (_gate)
            {
                if (!TryPeekLiveTimer(out timer, out var due) || due > now)
                {
                    return;
                }

                _timers.Dequeue();
                timer.Scheduled = false;
                if (timer.PeriodTicks > 0)
                {
                    // Periods missed while the loop was busy are skipped, not run in a burst.
                    var next = due + timer.PeriodTicks;
                    timer.Scheduled = true;
                    _timers.Enqueue((timer, timer.Version), next > now ? next : now + timer.PeriodTicks);
                }
            }

            RunGuarded(new UdpLoopWorkItem(timer, 0, 0, null));
        }
    }

    /// <summary>Drops stale entries from the top of the heap and peeks at the earliest live one (under the lock).</summary>
    private bool TryPeekLiveTimer(out UdpEventLoopTimer timer, out long due)
    {
        while (_timers.TryPeek(out var entry, out due))
        {
            if (entry.Version == entry.Timer.Version)
            {
                timer = entry.Timer;
                return true;
            }

            _timers.Dequeue();
            _staleTimerEntries--;
        }

        timer = null!;
        return false;
    }

    /// <summary>Gets the timestamp ticks until the earliest timer (0 if one is due), or -1 if none is scheduled (under the lock).</summary>
    private long TicksToNextTimerLocked(long now) =>
        TryPeekLiveTimer(out _, out var due) ? Math.Max(0, due - now) : -1;

    /// <summary>Makes the timer's heap entry stale (under the lock), and rebuilds the heap when stale entries pile up.</summary>
    private void Unschedule(UdpEventLoopTimer timer)
    {
        timer.Version++;
        if (!timer.Scheduled)
        {
            return;
        }

        timer.Scheduled = false;
        if (++_staleTimerEntries <= StaleTimerEntriesMax || _staleTimerEntries * 2 < _timers.Count)
        {
            return;
        }

        _timerCompaction.Clear();
        foreach (var (entry, due) in _timers.UnorderedItems)
        {
            if (entry.Version == entry.Timer.Version)
            {
                _timerCompaction.Add((entry, due));
            }
        }

        _timers.Clear();
        foreach (var (entry, due) in _timerCompaction)
        {
            _timers.Enqueue(entry, due);
        }

        _timerCompaction.Clear();
        _staleTimerEntries = 0;
    }

    private long ToTicks(TimeSpan span) => (long)Math.Ceiling(span.TotalSeconds * TimeProvider.TimestampFrequency);
}
