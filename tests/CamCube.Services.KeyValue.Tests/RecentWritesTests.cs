using CamCube.Services.KeyValue.Replication;

namespace CamCube.Services.KeyValue.Tests;

public sealed class RecentWritesTests
{
    private static readonly Key s_key = Key.FromString("k");

    [Fact]
    public void WriteIsFoundByItsIdForItsKeyOnly()
    {
        var writes = new RecentWrites(4);
        writes.Note(7, s_key, 100, notedAt: 1);

        Assert.True(writes.TryGet(7, s_key, out var version));
        Assert.Equal(100, version);
        Assert.False(writes.TryGet(7, Key.FromString("other"), out _));
        Assert.False(writes.TryGet(8, s_key, out _));
    }

    [Fact]
    public void WriteWithoutAnIdIsNeitherNotedNorFound()
    {
        var writes = new RecentWrites(4);
        writes.Note(0, s_key, 100, notedAt: 1);

        Assert.False(writes.TryGet(0, s_key, out _));
    }

    [Fact]
    public void OldestWriteIsForgottenWhenTheTableIsFull()
    {
        var writes = new RecentWrites(3);
        for (ulong id = 1; id <= 4; id++)
        {
            writes.Note(id, s_key, (long)id * 10, notedAt: (long)id);
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
        writes.Note(1, s_key, 10, notedAt: 1);
        writes.Note(1, s_key, 11, notedAt: 2);
        writes.Note(2, s_key, 20, notedAt: 3);

        Assert.True(writes.TryGet(1, s_key, out var version));
        Assert.Equal(11, version);
    }

    [Fact]
    public void EveryWriteOfAKeyNotedSinceATimeIsListedOldestFirstHoweverManyLaterWritesThereWere()
    {
        // Seed 182 of the register workload: a write asked again after many later writes of its key,
        // of a primary that restarted. Listing only a key's newest few let the primary write it twice.
        var writes = new RecentWrites(1_000);
        var other = Key.FromString("other");
        for (ulong id = 1; id <= 100; id++)
        {
            writes.Note(id, s_key, (long)id * 10, notedAt: (long)id);
            writes.Note(1_000 + id, other, 1, notedAt: (long)id);
        }

        var ids = new List<ulong>();
        var versions = new List<long>();
        writes.CopyNotedSince(s_key, since: 5, max: 1_000, ids, versions);

        Assert.Equal(Enumerable.Range(5, 96).Select(i => (ulong)i), ids);
        Assert.Equal(ids.Select(id => (long)id * 10), versions);
    }

    [Fact]
    public void ListingStopsAtTheNewestMaxWrites()
    {
        var writes = new RecentWrites(100);
        for (ulong id = 1; id <= 10; id++)
        {
            writes.Note(id, s_key, (long)id, notedAt: 0);
        }

        var ids = new List<ulong>();
        writes.CopyNotedSince(s_key, since: 0, max: 3, ids, []);

        Assert.Equal([8UL, 9UL, 10UL], ids);
    }

    [Fact]
    public void WriteNotedAgainLaterIsListedFromItsLaterTime()
    {
        var writes = new RecentWrites(100);
        writes.Note(1, s_key, 10, notedAt: 1);
        writes.Note(1, s_key, 10, notedAt: 50);

        var ids = new List<ulong>();
        writes.CopyNotedSince(s_key, since: 40, max: 10, ids, []);

        Assert.Equal([1UL], ids);
    }

    [Fact]
    public void WritesForgottenByTheTableAreNotListedForTheirKey()
    {
        var writes = new RecentWrites(2);
        writes.Note(1, s_key, 10, notedAt: 1);
        writes.Note(2, s_key, 20, notedAt: 2);
        writes.Note(3, Key.FromString("other"), 30, notedAt: 3);

        var ids = new List<ulong>();
        var versions = new List<long>();
        writes.CopyNotedSince(s_key, since: 0, max: 10, ids, versions);

        Assert.Equal([2UL], ids);
        Assert.Equal([20L], versions);
    }

    [Fact]
    public void TentativeNoteOfAFirstWriteAnswersNoOneAndIsNotPassedOnUntilConfirmedUnderItsBallot()
    {
        var writes = new RecentWrites(8);
        var firstWrite = Versions.Next(0, 7);
        writes.NoteTentative(1, s_key, firstWrite, notedAt: 1);

        var ids = new List<ulong>();
        writes.CopyNotedSince(s_key, since: 0, max: 10, ids, []);
        Assert.False(writes.TryGet(1, s_key, out _));
        Assert.True(writes.Knows(1, s_key));
        Assert.Empty(ids);

        writes.Confirm(s_key, ballot: 8);
        Assert.False(writes.TryGet(1, s_key, out _));

        writes.Confirm(s_key, ballot: 7);
        writes.CopyNotedSince(s_key, since: 0, max: 10, ids, []);
        Assert.True(writes.TryGet(1, s_key, out var version));
        Assert.Equal(firstWrite, version);
        Assert.Equal([1UL], ids);
    }

    [Fact]
    public void NoteForGoodReplacesATentativeOneButATentativeNoteNeverReplacesOneForGood()
    {
        var writes = new RecentWrites(8);
        writes.NoteTentative(1, s_key, 10, notedAt: 1);
        writes.Note(1, s_key, 20, notedAt: 2);
        writes.NoteTentative(1, s_key, 30, notedAt: 3);

        Assert.True(writes.TryGet(1, s_key, out var version));
        Assert.Equal(20, version);
    }
}
