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
    public void TheLeastOfTheRunsIsTaken()
    {
        var counts = new Queue<long>([500, 0, 300]);
        Assert.Equal(0, AllocationProbe.Measure(counts.Dequeue));
        Assert.Empty(counts);
    }

    [Fact]
    public void RunsFewerThanOneAreRefused() =>
        Assert.Throws<ArgumentOutOfRangeException>(() => AllocationProbe.Measure(() => 0, runs: 0));
}
