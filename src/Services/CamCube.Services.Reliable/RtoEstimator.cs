namespace CamCube.Services.Reliable;

/// <summary>
/// The retransmission timeout of one flow, computed from round-trip samples as RFC 6298 says:
/// SRTT and RTTVAR with alpha 1/8 and beta 1/4, RTO = SRTT + max(G, 4 RTTVAR) bounded by a minimum
/// and a maximum, doubled on each timeout (backoff) until a new sample arrives. Times are in ticks
/// of the node's <see cref="TimeProvider"/> timestamps.
/// </summary>
internal sealed class RtoEstimator
{
    private readonly long _minimumTicks;
    private readonly long _maximumTicks;
    private readonly long _initialTicks;
    private readonly long _granularityTicks;

    /// <summary>Creates an estimator with no sample yet: its timeout is <paramref name="initialTicks"/> (RFC 6298 2.1).</summary>
    public RtoEstimator(long initialTicks, long minimumTicks, long maximumTicks, long granularityTicks)
    {
        _initialTicks = initialTicks;
        _minimumTicks = minimumTicks;
        _maximumTicks = maximumTicks;
        _granularityTicks = granularityTicks;
        Reset();
    }

    /// <summary>Gets the smoothed round-trip time in ticks (0 before the first sample).</summary>
    public long SmoothedTicks { get; private set; }

    /// <summary>Gets the round-trip variation in ticks (0 before the first sample).</summary>
    public long VariationTicks { get; private set; }

    /// <summary>Gets the current retransmission timeout in ticks, backoff included.</summary>
    public long TimeoutTicks { get; private set; }

    /// <summary>Gets the timeout the samples give (RFC 6298 2.3: SRTT + max(G, 4 RTTVAR)), before clamping and backoff.</summary>
    public long MeasuredTicks => SmoothedTicks + Math.Max(_granularityTicks, 4 * VariationTicks);

    /// <summary>Gets whether a sample has been taken.</summary>
    public bool HasSample { get; private set; }

    /// <summary>Forgets every sample: the timeout is the initial one again.</summary>
    public void Reset()
    {
        SmoothedTicks = 0;
        VariationTicks = 0;
        HasSample = false;
        TimeoutTicks = Math.Clamp(_initialTicks, _minimumTicks, _maximumTicks);
    }

    /// <summary>
    /// Takes a round-trip sample of a packet that was sent once (Karn's rule: the caller never
    /// samples a retransmitted packet), which also ends any backoff (RFC 6298 2.2, 2.3, 5.7).
    /// </summary>
    public void AddSample(long sampleTicks)
    {
        sampleTicks = Math.Max(sampleTicks, 1);
        if (!HasSample)
        {
            SmoothedTicks = sampleTicks;
            VariationTicks = sampleTicks / 2;
            HasSample = true;
        }
        else
        {
            // RTTVAR first, with the old SRTT (RFC 6298 2.3).
            VariationTicks = ((3 * VariationTicks) + Math.Abs(SmoothedTicks - sampleTicks)) / 4;
            SmoothedTicks = ((7 * SmoothedTicks) + sampleTicks) / 8;
        }

        TimeoutTicks = Math.Clamp(MeasuredTicks, _minimumTicks, _maximumTicks);
    }

    /// <summary>The timer expired: doubles the timeout, up to the maximum (RFC 6298 5.5).</summary>
    public void BackOff() => TimeoutTicks = Math.Min(_maximumTicks, TimeoutTicks > _maximumTicks / 2 ? _maximumTicks : TimeoutTicks * 2);
}
