using CamCube.Services;

namespace CamCube.Messaging;

/// <summary>
/// The requests that wait for their replies here, and their timeouts: one timer for the service, set
/// for the earliest deadline, rather than a timer per request (a request costs a table entry, no timer).
/// </summary>
public abstract partial class MessagingServiceBase
{
    private readonly Dictionary<ulong, PendingReply> _pending = [];
    private readonly List<PendingReply> _expired = [];
    private ITimer? _timeoutTimer;
    private long _timeoutDue = long.MaxValue;

    /// <summary>Gets how many requests of this service wait for their reply here.</summary>
    public int PendingRequestCount => _pending.Count;

    /// <summary>Puts a request that left into the table, to wait at most <paramref name="timeout"/> for its reply.</summary>
    private void Wait(ulong requestId, PendingReply pending, TimeSpan timeout)
    {
        var clock = Node.TimeProvider;
        pending.RequestId = requestId;
        pending.Timeout = timeout;
        pending.Deadline = clock.GetTimestamp() + (long)Math.Ceiling(timeout.TotalSeconds * clock.TimestampFrequency);
        _pending.Add(requestId, pending);
        SetTimeoutTimer(pending.Deadline);
    }

    /// <summary>Takes a request out of the table once it ended: it waits for nothing, its exchange (if still open) stops.</summary>
    /// <returns>False if no request with the id waits (it ended already, or belonged to an earlier life of this node).</returns>
    private bool Take(ulong requestId, out PendingReply pending)
    {
        if (!_pending.Remove(requestId, out pending!))
        {
            return false;
        }

        Finish(pending);
        return true;
    }

    /// <summary>A request left the table: it waits for nothing (so it may carry its owner's next request), and its exchange stops if still open.</summary>
    private void Finish(PendingReply pending)
    {
        pending.RequestId = 0;
        if (pending.ExchangeId != 0)
        {
            _reliable?.Cancel(pending.ExchangeId);
            pending.ExchangeId = 0;
        }
    }

    /// <summary>Fails every waiting request: the service leaves its node.</summary>
    private void FailAllPending()
    {
        _timeoutTimer?.Dispose();
        _timeoutTimer = null;
        _timeoutDue = long.MaxValue;
        var pending = _pending.Values.ToArray();
        _pending.Clear();
        foreach (var request in pending)
        {
            Finish(request);
            request.OnFailed(new RequestFailedException(RequestFailure.Shutdown, $"Service {Name} stopped before the reply came."));
        }
    }

    private void SetTimeoutTimer(long deadline)
    {
        if (deadline >= _timeoutDue)
        {
            return;
        }

        var clock = Node.TimeProvider;
        _timeoutDue = deadline;
        _timeoutTimer ??= Node.CreateTimer(OnTimeoutTimer, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);

        _timeoutTimer.Change(TimerWait.Until(deadline, clock.GetTimestamp(), clock.TimestampFrequency), Timeout.InfiniteTimeSpan);
    }

    /// <summary>Fails the requests whose deadline passed, and sets the timer for the next one.</summary>
    private void OnTimeoutTimer()
    {
        _timeoutDue = long.MaxValue;
        var now = Node.TimeProvider.GetTimestamp();
        var next = long.MaxValue;
        foreach (var pending in _pending.Values)
        {
            if (pending.Deadline <= now)
            {
                _expired.Add(pending);
            }
            else
            {
                next = Math.Min(next, pending.Deadline);
            }
        }

        foreach (var pending in _expired)
        {
            _pending.Remove(pending.RequestId);
            Finish(pending);
        }

        if (next != long.MaxValue)
        {
            SetTimeoutTimer(next);
        }

        // Told after the table is settled: what they do next (ask again) may add requests and set the timer earlier.
        for (var i = 0; i < _expired.Count; i++)
        {
            var pending = _expired[i];
            pending.OnFailed(new RequestFailedException(RequestFailure.TimedOut, $"No reply to {pending.Description} within {pending.Timeout.TotalMilliseconds:0} ms."));
        }

        _expired.Clear();
    }
}
