using System.Net;
using CamCube.Memcached;
using CamCube.Services.Cache.FrontEnd;
using CamCube.Testing;
using Microsoft.Extensions.Logging.Abstractions;

namespace CamCube.Services.Cache.Tests;

/// <summary>
/// The cache beside a key-value store (camcubeos 5.2, memId = objId), with a fake source in a
/// one-server real-time cube (the integration with the real store is in KeyValueCommandTests): a
/// root that misses answers from the store, and a set of what the store holds keeps no second copy.
/// </summary>
public sealed class CacheValueSourceTests
{
    [Fact]
    public async Task AMissAtTheRootIsAnsweredFromTheStoreWithoutACopyInTheCache()
    {
        var source = new FakeSource();
        source.Values[CacheKeys.MemId("stored"u8)] = ("from the store"u8.ToArray(), 9u, 42ul);
        await using var cache = await OneServerCache.StartAsync(source);

        Assert.Equal("VALUE stored 9 14 42\r\nfrom the store\r\nEND\r\n", await cache.Client.AskAsync("gets stored\r\n", "END\r\n"));
        Assert.Equal("END\r\n", await cache.Client.AskAsync("get absent\r\n", "END\r\n"));

        Assert.Equal(0L, await cache.ItemsAsync());
    }

    [Fact]
    public async Task ASetOfWhatTheStoreHoldsKeepsNoSecondCopyAndAnotherValueIsCached()
    {
        var source = new FakeSource();
        source.Values[CacheKeys.MemId("k"u8)] = ("same"u8.ToArray(), 3u, 7ul);
        await using var cache = await OneServerCache.StartAsync(source);

        Assert.Equal("STORED\r\n", await cache.Client.AskAsync("set k 3 0 4\r\nsame\r\n"));
        Assert.Equal(0L, await cache.ItemsAsync());
        Assert.Equal("VALUE k 3 4\r\nsame\r\nEND\r\n", await cache.Client.AskAsync("get k\r\n", "END\r\n"));

        // Other bytes than the store's are the cache's own: kept, and served before the store's.
        Assert.Equal("STORED\r\n", await cache.Client.AskAsync("set k 3 0 5\r\nother\r\n"));
        Assert.Equal(1L, await cache.ItemsAsync());
        Assert.Equal("VALUE k 3 5\r\nother\r\nEND\r\n", await cache.Client.AskAsync("get k\r\n", "END\r\n"));

        // The same bytes again: the cache's copy goes.
        Assert.Equal("STORED\r\n", await cache.Client.AskAsync("set k 3 0 4\r\nsame\r\n"));
        Assert.Equal(0L, await cache.ItemsAsync());
    }

    private sealed class FakeSource : ICacheValueSource
    {
        public Dictionary<Key, (byte[] Value, uint Flags, ulong Version)> Values { get; } = [];

        public bool TryRead(Key memId, out ReadOnlyMemory<byte> value, out uint flags, out ulong version)
        {
            var found = Values.TryGetValue(memId, out var held);
            (value, flags, version) = (held.Value, held.Flags, held.Version);
            return found;
        }
    }

    private sealed class OneServerCache : IAsyncDisposable
    {
        private RealTimeCube _cube = null!;
        private MemcachedFrontEnd _frontEnd = null!;

        public TextClient Client { get; private set; } = null!;

        public static async Task<OneServerCache> StartAsync(ICacheValueSource source)
        {
            var cache = new OneServerCache();
            cache._cube = await RealTimeCube.StartAsync(new TorusShape(1, 1, 1), n => n.Register(new CacheService(valueSource: source)), TimeSpan.FromSeconds(30));
            var service = await cache._cube.InvokeAsync(() => cache._cube[default].GetService<CacheService>()!);
            cache._frontEnd = new MemcachedFrontEnd(service, new MemcachedFrontEndOptions { EndPoint = new IPEndPoint(IPAddress.Loopback, 0) }, NullLogger.Instance);
            await cache._frontEnd.StartAsync();
            cache.Client = await TextClient.ConnectAsync(cache._frontEnd.LocalEndPoint);
            return cache;
        }

        /// <summary>Counts the items in the cache's store, on the cube's loop.</summary>
        public Task<long> ItemsAsync() => _cube.InvokeAsync(() =>
        {
            var store = _cube[default].GetService<CacheService>()!.Store;
            lock (store.Gate)
            {
                return (long)store.Count;
            }
        });

        public async ValueTask DisposeAsync()
        {
            await Client.DisposeAsync();
            await _frontEnd.DisposeAsync();
            _cube.Dispose();
        }
    }
}
