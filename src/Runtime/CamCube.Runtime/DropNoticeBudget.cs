namespace CamCube.Runtime;

/// <summary>
/// The bound on drop notices one node sends (<see cref="NodeOptions.DropNoticesPerSecondMax"/>): a token
/// bucket that holds a second's worth of notices and refills at that rate from the node's clock. A flood
/// of drops sends at most that many notices a second (and a burst of one second's worth); the rest are
/// counted as suppressed (<see cref="NodeCounters.DropNoticesSuppressed"/>), and their packets are dropped
/// and counted as ever. Used on the node's loop only.
/// </summary>
internal sealed class DropNoticeBudget(TimeProvider timeProvider, int perSecondMax)
{
    private double _tokens = perSecondMax;
    private long _refilledTimestamp = timeProvider.GetTimestamp();

    /// <summary>Takes one notice from the budget; false when it is spent (or notices are off: a rate of 0).</summary>
    public bool TryTake()
    {
        var now = timeProvider.GetTimestamp();
        var elapsedSeconds = timeProvider.GetElapsedTime(_refilledTimestamp, now).TotalSeconds;
        _refilledTimestamp = now;
        _tokens = Math.Min(perSecondMax, _tokens + (elapsedSeconds * perSecondMax));
        if (_tokens < 1)
        {
            return false;
        }

        _tokens--;
        return true;
    }
}
