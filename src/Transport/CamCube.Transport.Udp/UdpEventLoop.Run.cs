namespace CamCube.Transport.Udp;

/// <summary>The loop's thread: timers, posted work, then the socket, turn after turn.</summary>
public sealed partial class UdpEventLoop
{
    /// <summary>The longest a blocked loop waits before it looks again, in milliseconds (a bound, not a tick: a post or a timer wakes it sooner).</summary>
    private const int BlockMillisecondsMax = 60_000;

    private void RunLoop()
    {
        try
        {
            while (!IsStopping())
            {
                RunDueTimers();
                var mayBlock = RunWork();
                if (Volatile.Read(ref _socket) is { } socket)
                {
                    ReceiveTurn(socket, mayBlock);
                }
                else if (mayBlock)
                {
                    WaitOnMonitor();
                }
            }
        }
        finally
        {
            ReleaseQueued();
            CloseWakeSocket();
        }
    }

    private bool IsStopping()
    {
        lock (_gate)
        {
            return _stopping;
        }
    }

    /// <summary>Runs up to <see cref="WorkItemsPerTurnMax"/> posted items; returns whether the queue ran empty.</summary>
    private bool RunWork()
    {
        for (var ran = 0; ran < WorkItemsPerTurnMax; ran++)
        {
            UdpLoopWorkItem item;
            lock (_gate)
            {
                if (_stopping || !_queue.TryDequeue(out item))
                {
                    return true;
                }
            }

            RunGuarded(item);
        }

        return false;
    }

    /// <summary>Runs a work item or a timer's callback; what it throws goes to the owner's handler, and the loop carries on.</summary>
    private void RunGuarded(in UdpLoopWorkItem item)
    {
#pragma warning disable CA1031 // A loop must survive a faulty work item; the owner decides what to log.
        try
        {
            item.Run();
        }
        catch (Exception ex)
        {
            _onUnhandled?.Invoke(ex);
        }
#pragma warning restore CA1031
    }

    /// <summary>
    /// Gets how long the loop may block (under the lock, so that a timer another thread moves
    /// meanwhile wakes it): 0 if work is queued or the loop stops, else until the next timer rounded
    /// up to whole milliseconds (the socket's unit, so it never wakes just before the timer is due), or -1
    /// with no timer.
    /// </summary>
    private int BlockMillisecondsLocked()
    {
        if (_queue.Count > 0 || _stopping)
        {
            return 0;
        }

        var ticks = TicksToNextTimerLocked(TimeProvider.GetTimestamp());
        if (ticks < 0)
        {
            return -1;
        }

        var milliseconds = (ticks * 1_000 + TimeProvider.TimestampFrequency - 1) / TimeProvider.TimestampFrequency;
        return (int)Math.Min(milliseconds, BlockMillisecondsMax);
    }

    /// <summary>Blocks on the monitor until work is posted or the next timer is due; for a loop with no socket.</summary>
    private void WaitOnMonitor()
    {
        lock (_gate)
        {
            var timeoutMilliseconds = BlockMillisecondsLocked();
            if (timeoutMilliseconds == 0)
            {
                return;
            }

            _sleep = Sleep.Monitor;
            Monitor.Wait(_gate, timeoutMilliseconds);
            _sleep = Sleep.None;
        }
    }

    /// <summary>Drops the work still queued at the end, releasing its packets.</summary>
    private void ReleaseQueued()
    {
        lock (_gate)
        {
            _stopping = true;
            while (_queue.TryDequeue(out var dropped))
            {
                dropped.Packet?.Release();
            }
        }
    }
}
