using CamCube.Packets;

namespace CamCube.Abstractions.Tests;

public sealed class PacketPoolTests
{
    [Fact]
    public void PreallocatedPacketsAreRentedWithoutCreatingMore()
    {
        var pool = new PacketPool(256);
        pool.Preallocate(10);
        Assert.Equal(10, pool.FreeCount);
        Assert.Equal(10, pool.CreatedCount);

        var rented = Enumerable.Range(0, 10).Select(_ => pool.Rent()).ToList();
        Assert.Equal(10, pool.CreatedCount);
        Assert.Equal(0, pool.FreeCount);

        rented.ForEach(p => p.Release());
        Assert.Equal(10, pool.FreeCount);
    }

    [Fact]
    public void SingleThreadedPoolReusesReturnedPacketsAndKeepsItsBoundWhenReturnedTo()
    {
        var pool = new PacketPool(256, pooledPacketsMax: 2, singleThreaded: true);
        var rented = Enumerable.Range(0, 3).Select(_ => pool.Rent()).ToList();
        Assert.Equal(3, pool.CreatedCount);

        rented.ForEach(p => p.Release());
        Assert.Equal(2, pool.FreeCount);

        var again = pool.Rent();
        Assert.Same(rented[1], again);
        Assert.Equal(3, pool.CreatedCount);
        Assert.Equal(1, pool.FreeCount);
    }

    [Fact]
    public void PreallocateTopsUpToTheCountAndNeverBeyondWhatThePoolKeeps()
    {
        var pool = new PacketPool(256, pooledPacketsMax: 4);
        pool.Preallocate(2);
        pool.Preallocate(3);
        Assert.Equal(3, pool.CreatedCount);
        pool.Preallocate(100);
        Assert.Equal(4, pool.FreeCount);
        Assert.Equal(4, pool.CreatedCount);
    }

    [Fact]
    public void PreallocateRejectsANegativeCount() =>
        Assert.Throws<ArgumentOutOfRangeException>(() => new PacketPool(256).Preallocate(-1));
}
