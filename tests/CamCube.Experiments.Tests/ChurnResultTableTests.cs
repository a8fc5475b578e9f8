namespace CamCube.Experiments.Tests;

public sealed class ChurnResultTableTests
{
    private static readonly ChurnResult s_result = new()
    {
        Shape = "8x8x8",
        Seed = 1,
        TraceHash = "0123456789abcdef",
        Events = 1_000,
        ChurnRatePerSecond = 2,
        FailureDurationSeconds = 25,
        DurationSeconds = 30,
        Failures = 73,
        Joins = 27,
        MeanFailedFraction = 0.1,
        Sent = 1_000,
        Delivered = 990,
        Misdelivered = 4,
        DeliveredDuringJoin = 17,
        Dropped = 6,
        DroppedPercent = 0.6,
        WallSeconds = 1,
        PeakWorkingSetBytes = 1,
    };

    [Fact]
    public void TheTableShowsMisdeliveriesAndJoinHandOversApart()
    {
        var table = ResultTable.Render(s_result);
        Assert.Matches(@"misdelivered\s+4", table);
        Assert.Matches(@"handed over in joins\s+17", table);
    }

    [Fact]
    public void TheFigureHasABarForJoinHandOvers() =>
        Assert.Contains("hand-overs", SvgFigure.Render(s_result), StringComparison.Ordinal);
}
