using CamCube.Testing;

namespace CamCube.Runtime.Tests;

public sealed class AllocationProbeTests
{
    [Fact]
    public void WorkThatAllocatesEveryRunIsMeasuredAtLeastAtWhatItAllocates()
    {
        var kept = new List<byte[]>();
        var allocated = AllocationProbe.OnCurrentThread(() => kept.Add(new byte[1_000]));
        Assert.InRange(allocated, 1_000, 1_200);
    }

    [Fact]
    public void AOneOffFirstAllocationIsNotTakenForSteadyState()
    {
        byte[]? lazy = null;
        var allocated = AllocationProbe.OnCurrentThread(() => lazy ??= new byte[1_000]);
        Assert.Equal(0, allocated);
        Assert.NotNull(lazy);
    }

    [Fact]
    public void RunsWithAGarbageCollectionAreNotCounted()
    {
        var runs = 0;

        // The first two runs collect (and report a large count); the three counted ones report 7.
        var result = AllocationProbe.Measure(() =>
        {
            if (runs++ < 2)
            {
                GC.Collect(0);
                return 1_000_000;
            }

            return 7;
        });
        Assert.Equal(7, result);
        Assert.True(runs >= 5, $"{runs} runs");
    }

    [Fact]
    public void TooFewCollectionFreeRunsIsAnErrorNotAResult()
    {
        var ex = Assert.Throws<InvalidOperationException>(() => AllocationProbe.Measure(
            () =>
            {
                GC.Collect(0);
                return 0;
            },
            runs: 1,
            attemptsMax: 3));
        Assert.Contains("free of garbage collections", ex.Message, StringComparison.Ordinal);
    }
}
