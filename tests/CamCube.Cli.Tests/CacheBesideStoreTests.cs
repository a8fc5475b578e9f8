using System.Globalization;
using System.Net;
using System.Text;
using CamCube.Cli.Cube;
using CamCube.Cli.Nodes;
using CamCube.Memcached;
using CamCube.Runtime;
using CamCube.Services.Cache;
using CamCube.Services.Cache.FrontEnd;
using CamCube.Services.KeyValue;
using CamCube.Services.KeyValue.FrontEnd;
using CamCube.Testing;
using Microsoft.Extensions.Logging.Abstractions;

namespace CamCube.Cli.Tests;

/// <summary>
/// The cache beside the store (camcubeos 5.2, memId = objId; <c>KeyValue:CacheReadsStore</c>, <c>cube up
/// --kv-cache</c>) on a 3x3x3 real-time in-memory cube whose nodes run the built-in node's services as
/// <c>cube up --kv-cache</c> sets them up: a cache get of a key the store holds is answered from the
/// store's copy at the key's root, and no cache keeps a second copy, whether or not the key's servers
/// include the node the client talks to.
/// </summary>
public sealed class CacheBesideStoreTests
{
    private static readonly Coordinate s_frontEnd = new(0, 0, 0);

    [Fact]
    public void CubeUpGivesEveryNodeTheCacheBesideTheStoreWhenAskedAndNothingOtherwise()
    {
        var layout = new CubeLayout(Path.GetTempPath());
        var (asked, _) = CubeCommand.ReadUp(["--shape", "2x2x2", "--kv-cache"]);
        var (notAsked, _) = CubeCommand.ReadUp(["--shape", "2x2x2"]);

        foreach (var node in Enumerable.Range(0, 8).Select(i => asked.Shape.CoordinateAt(i)))
        {
            Assert.Single(NodeLaunch.Arguments(node, layout, asked), "--KeyValue:CacheReadsStore=true");
            Assert.True(NodeLaunch.KeyValue(node, layout, asked).CacheReadsStore);
            Assert.DoesNotContain(NodeLaunch.Arguments(node, layout, notAsked), argument => argument.StartsWith("--KeyValue:CacheReadsStore", StringComparison.Ordinal));
            Assert.False(NodeLaunch.KeyValue(node, layout, notAsked).CacheReadsStore);
        }
    }

    [Fact]
    public async Task CacheGetIsServedFromTheStoresCopyWithNoSecondCopyWhetherOrNotTheKeysServersIncludeTheClientsNode()
    {
        var (options, _) = CubeCommand.ReadUp(["--shape", "3x3x3", "--kv-storage", "memory", "--kv-cache", "--in-process"]);
        var layout = new CubeLayout(Path.GetTempPath());
        var keySpace = KeySpace.For(options.Shape);
        string KeyWhere(string prefix, Func<Coordinate[], bool> servers) =>
            Enumerable.Range(0, 1000).Select(i => string.Create(CultureInfo.InvariantCulture, $"{prefix}-{i}")).First(k => servers(keySpace.GetServersForKey(Key.Hash(Encoding.ASCII.GetBytes(k)), 3)));

        // Keys whose root (cache root and store primary) is the clients' node, of which it is another
        // replica, and of which it is none of the r = 3 servers.
        string[] keys = [KeyWhere("root", s => s[0] == s_frontEnd), KeyWhere("replica", s => s[0] != s_frontEnd && s.Contains(s_frontEnd)), KeyWhere("remote", s => !s.Contains(s_frontEnd))];
        using var cube = await RealTimeCube.StartAsync(options.Shape, node => Register(node, NodeLaunch.KeyValue(node.Self, layout, options)), TimeSpan.FromSeconds(60));
        var store = await cube.InvokeAsync(() => cube[s_frontEnd].GetService<KeyValueService>()!);
        var cache = await cube.InvokeAsync(() => cube[s_frontEnd].GetService<CacheService>()!);
        await using var storeFrontEnd = new KeyValueFrontEnd(store, new KeyValueFrontEndOptions { Connections = new MemcachedFrontEndOptions { EndPoint = new IPEndPoint(IPAddress.Loopback, 0) } }, NullLogger.Instance);
        await using var cacheFrontEnd = new MemcachedFrontEnd(cache, new MemcachedFrontEndOptions { EndPoint = new IPEndPoint(IPAddress.Loopback, 0) }, NullLogger.Instance);
        await storeFrontEnd.StartAsync();
        await cacheFrontEnd.StartAsync();
        await using var storeClient = await TextClient.ConnectAsync(storeFrontEnd.LocalEndPoint);
        await using var cacheClient = await TextClient.ConnectAsync(cacheFrontEnd.LocalEndPoint);

        foreach (var key in keys)
        {
            // The cache's answer is the store's, byte for byte: its value, flags, and version as the cas unique.
            Assert.Equal("STORED\r\n", await storeClient.AskAsync(Set(key, "first")));
            Assert.Equal(await Gets(storeClient, key), await Gets(cacheClient, key));

            // No cache kept that answer: it follows the store's next write at once.
            Assert.Equal("STORED\r\n", await storeClient.AskAsync(Set(key, "second")));
            Assert.Equal(await Gets(storeClient, key), await Gets(cacheClient, key));

            // A cache set of exactly what the store holds keeps no copy either.
            Assert.Equal("STORED\r\n", await cacheClient.AskAsync(Set(key, "second")));
            Assert.Equal("STORED\r\n", await storeClient.AskAsync(Set(key, "third")));
            Assert.StartsWith($"VALUE {key} 5 5 ", await Gets(cacheClient, key), StringComparison.Ordinal);
            Assert.Equal(await Gets(storeClient, key), await Gets(cacheClient, key));
        }

        // Other bytes are the cache's own: kept (the one item in the cube's caches) and served before the
        // store's, so a copy kept above would have been served and counted.
        Assert.Equal("STORED\r\n", await cacheClient.AskAsync(Set(keys[2], "cached")));
        Assert.Equal(1, await ItemsSettleAtAsync(cube, 1));
        Assert.Equal($"VALUE {keys[2]} 5 6\r\ncached\r\nEND\r\n", await cacheClient.AskAsync($"get {keys[2]}\r\n", "END\r\n"));
    }

    /// <summary>Registers the services the built-in node runs with these store settings (ReferenceServices.CreateParts, as `cube up --in-process` does).</summary>
    private static void Register(Node node, KeyValueNodeSettings settings)
    {
        foreach (var service in ReferenceServices.CreateParts(memcached: null, settings, nodeName: "unused by the memory storage").Services)
        {
            node.Register(service);
        }
    }

    private static string Set(string key, string value) => string.Create(CultureInfo.InvariantCulture, $"set {key} 5 0 {value.Length}\r\n{value}\r\n");

    private static Task<string> Gets(TextClient client, string key) => client.AskAsync($"gets {key}\r\n", "END\r\n");

    /// <summary>The items of every node's cache added up, once they are <paramref name="expected"/> or after 10 s (each node counts its items every sweep, 100 ms).</summary>
    private static async Task<long> ItemsSettleAtAsync(RealTimeCube cube, long expected)
    {
        var deadline = TimeProvider.System.GetTimestamp() + (10 * TimeProvider.System.TimestampFrequency);
        while (true)
        {
            var items = await cube.InvokeAsync(() => Enumerable.Range(0, (int)cube.Shape.ServerCount).Sum(i => cube[cube.Shape.CoordinateAt(i)].GetService<CacheService>()!.Statistics.CurrentItems));
            if (items == expected || TimeProvider.System.GetTimestamp() > deadline)
            {
                return items;
            }

            await Task.Delay(TimeSpan.FromMilliseconds(20), TimeProvider.System);
        }
    }
}
