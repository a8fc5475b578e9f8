using CamCube.Services.Reliable;

namespace CamCube.Services.Cache;

/// <summary>
/// Sending a request again when its answer is late, on a timeout measured from the round trips of
/// this node's requests (RFC 6298's estimator, <see cref="RtoEstimator"/>: a request answered without
/// having been sent again is a sample, Karn's rule), doubled per try up to
/// <see cref="CacheOptions.RetransmitIntervalMax"/>. Before the first sample the timeout is
/// <see cref="CacheOptions.RetransmitInterval"/>. One timer of the service's, set for the earliest
/// request due, does it: a lost request or answer costs a few round trips of the cube, not the
/// sweep's period.
/// </summary>
public sealed partial class CacheService
{
    private RtoEstimator? _rto;
    private ITimer? _retransmitTimer;
    private long _retransmitDue = long.MaxValue;

    private void InitializeRetransmission(INodeContext node)
    {
        var frequency = node.TimeProvider.TimestampFrequency;
        _rto = new RtoEstimator(
            _retransmitTicks,
            Math.Max(1, (long)(Options.RetransmitIntervalMin.TotalSeconds * frequency)),
            _retransmitTicksMax,
            Math.Max(1, frequency / 1_000_000));
        _retransmitDue = long.MaxValue;
        _retransmitTimer = node.CreateTimer(OnRetransmitTimer, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
    }

    /// <summary>Gets the wait before try <paramref name="retransmissions"/> + 1 of a request: the measured timeout doubled per earlier retry, capped.</summary>
    private long RequestRetransmitTicks(int retransmissions) =>
        Math.Min(_rto!.TimeoutTicks << Math.Min(retransmissions, 16), _retransmitTicksMax);

    /// <summary>Notes that <paramref name="pending"/> was just sent under its id for the first time, and when it is due again.</summary>
    private void NoteFirstSend(PendingRequest pending, long now)
    {
        pending.SentAt = now;
        pending.RetransmitAt = now + RequestRetransmitTicks(pending.Retransmissions);
        ScheduleRetransmission(pending.RetransmitAt);
    }

    /// <summary>An answer completed <paramref name="pending"/>: its round trip is a sample if it was sent once.</summary>
    private void SampleRoundTrip(PendingRequest pending, long now)
    {
        if (pending.Retransmissions == 0)
        {
            _rto!.AddSample(now - pending.SentAt);
        }
    }

    private void ScheduleRetransmission(long due)
    {
        if (due >= _retransmitDue || _retransmitTimer is null)
        {
            return;
        }

        _retransmitDue = due;
        _retransmitTimer.Change(TimerWait.Until(due, Node.TimeProvider.GetTimestamp(), Node.TimeProvider.TimestampFrequency), Timeout.InfiniteTimeSpan);
    }

    /// <summary>Sends again each request whose answer is late, and sets the timer for the next one due; a request past its deadline is left to the sweep.</summary>
    private void OnRetransmitTimer()
    {
        _retransmitDue = long.MaxValue;
        var now = Node.TimeProvider.GetTimestamp();
        var next = long.MaxValue;
        foreach (var pending in _pending.Values)
        {
            if (pending.Call.Operation == 0 || pending.Deadline <= now)
            {
                continue;
            }

            if (pending.RetransmitAt <= now)
            {
                if (pending.Destination is null && pending.Call.Operation != CacheOperation.Get)
                {
                    // A write that moved while the view still named the server it left: the root now.
                    pending.Destination = RootOf(pending);
                    NoteFirstSend(pending, now);
                }
                else
                {
                    // No answer yet: the request or its answer may have been lost. Send it again with the
                    // same id, to the same server for a write, which executes it once and answers a repeat from memory.
                    pending.ForgetPartialResponse();
                    pending.RetransmitAt = now + RequestRetransmitTicks(++pending.Retransmissions);
                    Statistics.CountRetransmission();
                }

                SendRequest(pending);
            }

            next = Math.Min(next, pending.RetransmitAt);
        }

        ScheduleRetransmission(next);
    }
}
