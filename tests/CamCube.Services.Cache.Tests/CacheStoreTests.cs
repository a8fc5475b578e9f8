using System.Text;
using CamCube.Runtime.Loops;

namespace CamCube.Services.Cache.Tests;

public class CacheStoreTests
{
    private static readonly Coordinate s_self = new(0, 0, 0);
    private readonly ManualTimeProvider _clock = new();

    private static byte[] B(string s) => Encoding.ASCII.GetBytes(s);

    private CacheStore NewStore(long memory = 1 << 20, int itemMax = 1024) => new(_clock, memory, itemMax);

    [Fact]
    public void LeastRecentlyUsedItemIsEvictedWhenMemoryLimitIsReached()
    {
        // Each item: 2-byte key + 100-byte value + overhead; three fit, the fourth evicts the oldest.
        var itemBytes = 2 + 100 + CacheItem.OverheadBytes;
        var store = NewStore(memory: (3 * itemBytes) + 10, itemMax: 200);
        foreach (var key in new[] { "k1", "k2", "k3" })
        {
            Assert.Equal(CacheStatus.Stored, store.Store(CacheOperation.Set, B(key), 0, 0, new byte[100], 0, s_self, out _));
        }

        Assert.NotNull(store.Get(B("k1"))); // k1 becomes the most recently used; k2 is now the oldest.
        Assert.Equal(CacheStatus.Stored, store.Store(CacheOperation.Set, B("k4"), 0, 0, new byte[100], 0, s_self, out _));

        Assert.Null(store.Get(B("k2")));
        Assert.NotNull(store.Get(B("k1")));
        Assert.NotNull(store.Get(B("k3")));
        Assert.NotNull(store.Get(B("k4")));
        Assert.Equal(1, store.Evictions);
        Assert.Equal(3 * itemBytes, store.UsedBytes);
    }

    [Fact]
    public void ItemExpiresWhenTheClockPassesItsExpiry()
    {
        var store = NewStore();
        store.Store(CacheOperation.Set, B("k"), 7, 10, B("v"), 0, s_self, out _);
        _clock.Advance(TimeSpan.FromSeconds(9.9));
        Assert.Equal(7u, store.Get(B("k"))!.Flags);
        _clock.Advance(TimeSpan.FromSeconds(0.1));
        Assert.Null(store.Get(B("k")));
        Assert.Equal(0, store.Count);
    }

    [Fact]
    public void NegativeExpiryStoresAnAlreadyExpiredItem()
    {
        var store = NewStore();
        Assert.Equal(CacheStatus.Stored, store.Store(CacheOperation.Set, B("k"), 0, -1, B("v"), 0, s_self, out _));
        Assert.Null(store.Get(B("k")));
    }

    [Fact]
    public void CasSucceedsOnlyWithTheCurrentUniqueValue()
    {
        var store = NewStore();
        Assert.Equal(CacheStatus.NotFound, store.Store(CacheOperation.Cas, B("k"), 0, 0, B("x"), 1, s_self, out _));
        store.Store(CacheOperation.Set, B("k"), 0, 0, B("a"), 0, s_self, out var first);
        var cas = first!.Cas;
        Assert.Equal(CacheStatus.Exists, store.Store(CacheOperation.Cas, B("k"), 0, 0, B("b"), cas + 1, s_self, out _));
        Assert.Equal(CacheStatus.Stored, store.Store(CacheOperation.Cas, B("k"), 0, 0, B("c"), cas, s_self, out var second));
        Assert.True(second!.Cas > cas);
        Assert.Equal(CacheStatus.Exists, store.Store(CacheOperation.Cas, B("k"), 0, 0, B("d"), cas, s_self, out _));
        Assert.Equal("c", Encoding.ASCII.GetString(store.Get(B("k"))!.Value));
    }

    [Fact]
    public void AddReplaceAppendPrependFollowMemcached()
    {
        var store = NewStore();
        Assert.Equal(CacheStatus.NotStored, store.Store(CacheOperation.Replace, B("k"), 0, 0, B("x"), 0, s_self, out _));
        Assert.Equal(CacheStatus.NotStored, store.Store(CacheOperation.Append, B("k"), 0, 0, B("x"), 0, s_self, out _));
        Assert.Equal(CacheStatus.Stored, store.Store(CacheOperation.Add, B("k"), 3, 0, B("mid"), 0, s_self, out _));
        Assert.Equal(CacheStatus.NotStored, store.Store(CacheOperation.Add, B("k"), 0, 0, B("x"), 0, s_self, out _));
        Assert.Equal(CacheStatus.Stored, store.Store(CacheOperation.Append, B("k"), 9, 0, B("-end"), 0, s_self, out _));
        Assert.Equal(CacheStatus.Stored, store.Store(CacheOperation.Prepend, B("k"), 9, 0, B("start-"), 0, s_self, out _));
        var item = store.Get(B("k"))!;
        Assert.Equal("start-mid-end", Encoding.ASCII.GetString(item.Value));
        Assert.Equal(3u, item.Flags);
        Assert.Equal(CacheStatus.Stored, store.Store(CacheOperation.Replace, B("k"), 4, 0, B("new"), 0, s_self, out _));
        Assert.Equal("new", Encoding.ASCII.GetString(store.Get(B("k"))!.Value));
    }

    [Fact]
    public void IncrementWrapsAndDecrementStopsAtZero()
    {
        var store = NewStore();
        store.Store(CacheOperation.Set, B("n"), 0, 0, B("18446744073709551615"), 0, s_self, out _);
        Assert.Equal(CacheStatus.Hit, store.IncrementOrDecrement(B("n"), 2, increment: true, out var item));
        Assert.Equal("1", Encoding.ASCII.GetString(item!.Value));
        Assert.Equal(CacheStatus.Hit, store.IncrementOrDecrement(B("n"), 5, increment: false, out item));
        Assert.Equal("0", Encoding.ASCII.GetString(item!.Value));
        store.Store(CacheOperation.Set, B("t"), 0, 0, B("abc"), 0, s_self, out _);
        Assert.Equal(CacheStatus.NonNumeric, store.IncrementOrDecrement(B("t"), 1, increment: true, out _));
        Assert.Equal(CacheStatus.NotFound, store.IncrementOrDecrement(B("none"), 1, increment: true, out _));
    }

    [Fact]
    public void TooLargeValueIsRefusedAndRemovesTheOldItem()
    {
        var store = NewStore(itemMax: 10);
        store.Store(CacheOperation.Set, B("k"), 0, 0, B("small"), 0, s_self, out _);
        Assert.Equal(CacheStatus.TooLarge, store.Store(CacheOperation.Set, B("k"), 0, 0, new byte[11], 0, s_self, out _));
        Assert.Null(store.Get(B("k")));
    }

    [Fact]
    public void DelayedFlushKillsItemsStoredBeforeItsTime()
    {
        var store = NewStore();
        store.Store(CacheOperation.Set, B("old"), 0, 0, B("v"), 0, s_self, out _);
        store.FlushAll(5);
        Assert.NotNull(store.Get(B("old")));
        _clock.Advance(TimeSpan.FromSeconds(5));
        Assert.Null(store.Get(B("old")));
        _clock.Advance(TimeSpan.FromSeconds(1));
        store.Store(CacheOperation.Set, B("new"), 0, 0, B("v"), 0, s_self, out _);
        Assert.NotNull(store.Get(B("new")));
    }

    [Fact]
    public void CopyNeverReplacesTheRootsOwnItem()
    {
        var store = NewStore();
        store.Store(CacheOperation.Set, B("k"), 0, 0, B("root"), 0, s_self, out _);
        store.PutCopy(B("k"), B("copy"), 0, 1, 0, new Coordinate(1, 1, 1), long.MaxValue);
        Assert.Equal("root", Encoding.ASCII.GetString(store.Get(B("k"))!.Value));
        store.PutCopy(B("c"), B("copy"), 0, 1, 0, new Coordinate(1, 1, 1), long.MaxValue);
        Assert.True(store.Get(B("c"))!.IsCopy);
        Assert.Null(store.GetPrimary(B("c")));
    }

    [Theory]
    [InlineData("", false)]
    [InlineData("a b", false)]
    [InlineData("a\tb", false)]
    [InlineData("a\u007fb", false)]
    [InlineData("user::img::file.jpg", true)]
    public void KeyRulesFollowMemcached(string key, bool valid) => Assert.Equal(valid, CacheKeys.IsValid(B(key)));

    [Fact]
    public void KeyOf250BytesIsValidAnd251IsNot()
    {
        Assert.True(CacheKeys.IsValid(new byte[250].AsSpan().ToArray().Select(_ => (byte)'k').ToArray()));
        Assert.False(CacheKeys.IsValid(Enumerable.Repeat((byte)'k', 251).ToArray()));
    }
}
