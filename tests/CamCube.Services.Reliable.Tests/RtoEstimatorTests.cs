namespace CamCube.Services.Reliable.Tests;

public sealed class RtoEstimatorTests
{
    // Ticks are abstract here: initial 1,000, minimum 10, maximum 5,000, granularity 2.
    private static RtoEstimator Create() => new(initialTicks: 1_000, minimumTicks: 10, maximumTicks: 5_000, granularityTicks: 2);

    [Fact]
    public void TimeoutIsTheInitialOneWhenNoSampleWasTaken()
    {
        var rto = Create();

        Assert.False(rto.HasSample);
        Assert.Equal(1_000, rto.TimeoutTicks);
    }

    [Fact]
    public void FirstSampleSetsSmoothedToItAndVariationToHalfWhenTaken()
    {
        var rto = Create();

        rto.AddSample(100);

        // RFC 6298 2.2: SRTT = R, RTTVAR = R/2, RTO = SRTT + max(G, 4 RTTVAR) = 100 + 200.
        Assert.Equal(100, rto.SmoothedTicks);
        Assert.Equal(50, rto.VariationTicks);
        Assert.Equal(300, rto.TimeoutTicks);
    }

    [Fact]
    public void LaterSampleUpdatesVariationWithTheOldSmoothedValueWhenTaken()
    {
        var rto = Create();
        rto.AddSample(100);

        rto.AddSample(180);

        // RFC 6298 2.3: RTTVAR = 3/4 50 + 1/4 |100 - 180| = 57 (integer), SRTT = 7/8 100 + 1/8 180 = 110.
        Assert.Equal(57, rto.VariationTicks);
        Assert.Equal(110, rto.SmoothedTicks);
        Assert.Equal(110 + (4 * 57), rto.TimeoutTicks);
    }

    [Fact]
    public void TimeoutIsTheMinimumWhenTheRoundTripIsTiny()
    {
        var rto = Create();

        rto.AddSample(1);

        Assert.Equal(10, rto.TimeoutTicks);
    }

    [Fact]
    public void GranularityBoundsTheVariationTermWhenSamplesAreSteady()
    {
        var rto = new RtoEstimator(1_000, 1, 5_000, granularityTicks: 40);
        for (var i = 0; i < 50; i++)
        {
            rto.AddSample(100);
        }

        Assert.Equal(100, rto.SmoothedTicks);
        Assert.Equal(140, rto.TimeoutTicks);
    }

    [Fact]
    public void BackOffDoublesUpToTheMaximumWhenTimeoutsRepeat()
    {
        var rto = Create();
        rto.AddSample(100);

        var seen = new List<long>();
        for (var i = 0; i < 6; i++)
        {
            rto.BackOff();
            seen.Add(rto.TimeoutTicks);
        }

        Assert.Equal([600, 1_200, 2_400, 4_800, 5_000, 5_000], seen);
    }

    [Fact]
    public void NewSampleEndsTheBackoffWhenItArrives()
    {
        var rto = Create();
        rto.AddSample(100);
        rto.BackOff();
        rto.BackOff();

        rto.AddSample(100);

        // RTTVAR = 3/4 50 + 0 = 37, SRTT = 100: RTO = 100 + 148, no longer doubled.
        Assert.Equal(248, rto.TimeoutTicks);
    }

    [Fact]
    public void ResetForgetsSamplesWhenTheFlowMoves()
    {
        var rto = Create();
        rto.AddSample(100);

        rto.Reset();

        Assert.False(rto.HasSample);
        Assert.Equal(1_000, rto.TimeoutTicks);
    }
}
