using CamCube.Services.KeyValue.Replication;

namespace CamCube.Services.KeyValue.Tests;

public sealed class RecentWritesTests
{
    private static readonly Key s_key = Key.FromString("k");

    [Fact]
    public void WriteIsFoundByItsIdForItsKeyOnly()
    {
        var writes = new RecentWrites(4);
        writes.Note(7, s_key, 100);

        Assert.True(writes.TryGet(7, s_key, out var version));
        Assert.Equal(100, version);
        Assert.False(writes.TryGet(7, Key.FromString("other"), out _));
        Assert.False(writes.TryGet(8, s_key, out _));
    }

    [Fact]
    public void WriteWithoutAnIdIsNeitherNotedNorFound()
    {
        var writes = new RecentWrites(4);
        writes.Note(0, s_key, 100);

        Assert.False(writes.TryGet(0, s_key, out _));
    }

    [Fact]
    public void OldestWriteIsForgottenWhenTheTableIsFull()
    {
        var writes = new RecentWrites(3);
        for (ulong id = 1; id <= 4; id++)
        {
            writes.Note(id, s_key, (long)id * 10);
        }

        Assert.False(writes.TryGet(1, s_key, out _));
        Assert.True(writes.TryGet(4, s_key, out var newest));
        Assert.Equal(40, newest);
        Assert.True(writes.TryGet(2, s_key, out _));
    }

    [Fact]
    public void WriteNotedAgainKeepsItsPlaceAndTakesTheNewVersion()
    {
        var writes = new RecentWrites(2);
        writes.Note(1, s_key, 10);
        writes.Note(1, s_key, 11);
        writes.Note(2, s_key, 20);

        Assert.True(writes.TryGet(1, s_key, out var version));
        Assert.Equal(11, version);
    }

    [Fact]
    public void NewestWritesOfAKeyAreListedOldestFirstUpToThePerKeyLimit()
    {
        var writes = new RecentWrites(100);
        var other = Key.FromString("other");
        for (ulong id = 1; id <= RecentWrites.PerKeyMax + 2; id++)
        {
            writes.Note(id, s_key, (long)id * 10);
            writes.Note(1000 + id, other, 1);
        }

        var ids = new List<ulong>();
        var versions = new List<long>();
        writes.CopyNewest(s_key, ids, versions);

        Assert.Equal(Enumerable.Range(3, RecentWrites.PerKeyMax).Select(i => (ulong)i), ids);
        Assert.Equal(ids.Select(id => (long)id * 10), versions);
    }

    [Fact]
    public void WritesForgottenByTheTableAreNotListedForTheirKey()
    {
        var writes = new RecentWrites(2);
        writes.Note(1, s_key, 10);
        writes.Note(2, s_key, 20);
        writes.Note(3, Key.FromString("other"), 30);

        var ids = new List<ulong>();
        var versions = new List<long>();
        writes.CopyNewest(s_key, ids, versions);

        Assert.Equal([2UL], ids);
        Assert.Equal([20L], versions);
    }
}
