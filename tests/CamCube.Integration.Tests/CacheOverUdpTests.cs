using System.Diagnostics;
using System.Globalization;
using System.Text.RegularExpressions;

namespace CamCube.Integration.Tests;

/// <summary>The memcached front-ends of the 27-process UDP cube: consistent across nodes, real clients, failures.</summary>
[Collection(SharedCube.Name)]
public sealed class CacheOverUdpTests(CubeFixture cube)
{
    [Fact]
    public void SetGetCasAndDeleteThroughFrontEndsOnDifferentNodesAgree()
    {
        using var a = new MemcachedTextClient(cube.MemcachedPort(new Coordinate(0, 0, 0)));
        using var b = new MemcachedTextClient(cube.MemcachedPort(new Coordinate(2, 1, 2)));
        using var c = new MemcachedTextClient(cube.MemcachedPort(new Coordinate(1, 2, 0)));
        Assert.Equal("STORED", a.Command("set photo:1 7 0 5", "hello"));
        Assert.Equal(("VALUE photo:1 7 5", "hello"), b.Get("get", "photo:1"));

        var gets = c.Get("gets", "photo:1")!.Value.Header.Split(' ');
        var cas = ulong.Parse(gets[^1], CultureInfo.InvariantCulture);
        Assert.Equal("EXISTS", a.Command($"cas photo:1 0 0 5 {cas + 1}", "wrong"));
        Assert.Equal("STORED", b.Command($"cas photo:1 0 0 5 {cas}", "world"));
        Assert.Equal("world", c.Get("get", "photo:1")!.Value.Data);

        Assert.Equal("DELETED", c.Command("delete photo:1"));
        Assert.Null(a.Get("get", "photo:1"));
        Assert.Equal("NOT_FOUND", b.Command("delete photo:1"));
    }

    [Fact]
    public void MemcachedsOwnTestSuitePassesEveryAsciiTestWhenRunAgainstAFrontEnd()
    {
        var tool = new[] { "/usr/bin/memccapable", "/usr/bin/memcapable" }.FirstOrDefault(File.Exists);
        Assert.True(tool is not null, "memccapable is missing: install Debian's libmemcached-tools (.ci/run does)");
        var (exit, output) = RunTool(tool!, "-a", "-h", "127.0.0.1", "-p", cube.MemcachedPort(new Coordinate(1, 1, 1)).ToString(CultureInfo.InvariantCulture));

        // memcapable marks each test [pass], [skip] or [FAIL]; its ASCII suite has 27.
        Assert.True(exit == 0, output);
        Assert.DoesNotContain("[FAIL]", output, StringComparison.Ordinal);
        Assert.True(Regex.Count(output, @"^ascii .*\[pass\]$", RegexOptions.Multiline | RegexOptions.CultureInvariant) == 27, output);
        Assert.Contains("All tests passed", output, StringComparison.Ordinal);
    }

    [Fact]
    public void MemcslapStoresEachOfItsSetsWhenFourThreadsLoadAFrontEnd()
    {
        var frontEnd = new Coordinate(2, 2, 2);
        using var client = new MemcachedTextClient(cube.MemcachedPort(frontEnd));
        var before = client.Stats();
        var itemsBefore = CubeItems();

        var (exit, output) = RunMemcslap(frontEnd, "set");

        // memcslap exits 0 whatever the replies, and counts only the sets that were STORED (a
        // thread stops at its first failure): each of its 4 threads sets the same 250 keys.
        Assert.True(exit == 0, output);
        Assert.True(KeysDone(output, "set", byThreads: true) == 1_000, output);
        Assert.Equal(1_000, client.Stats()["cmd_set"] - before["cmd_set"]);

        // Each key is stored once, at its root: the cube holds 250 more items (each node's
        // curr_items is refreshed every 100 ms).
        var added = 0L;
        Assert.True(cube.WaitFor(() => (added = CubeItems() - itemsBefore) == 250, TimeSpan.FromSeconds(10)), $"The cube holds {added} more items, not 250.");
    }

    [Fact]
    public void MemcslapFindsEveryKeyItLoadedWhenItsThreadsReadThemBackThroughAFrontEnd()
    {
        var frontEnd = new Coordinate(2, 2, 2);
        using var client = new MemcachedTextClient(cube.MemcachedPort(frontEnd));
        var before = client.Stats();

        var (exit, output) = RunMemcslap(frontEnd, "get");

        // It loads 250 keys, then each of 4 threads gets 250 of them at random; it counts the hits only.
        Assert.True(exit == 0, output);
        Assert.True(KeysDone(output, "set", byThreads: false) == 250, output);
        Assert.True(KeysDone(output, "get", byThreads: true) == 1_000, output);
        var after = client.Stats();
        Assert.Equal((250, 1_000, 1_000, 0), (after["cmd_set"] - before["cmd_set"], after["cmd_get"] - before["cmd_get"], after["get_hits"] - before["get_hits"], after["get_misses"] - before["get_misses"]));
    }

    [Fact]
    public void AfterTheRootFailsItsKeysAreGoneAndNewWritesLandOnTheNewRoot()
    {
        var keySpace = KeySpace.For(CubeFixture.Shape);
        var key = Enumerable.Range(0, 10_000).Select(i => "failover:" + i)
            .First(k => keySpace.GetServersForKey(CamCube.Services.Cache.CacheKeys.MemId(System.Text.Encoding.ASCII.GetBytes(k)), 1)[0] == new Coordinate(2, 0, 1));
        var root = new Coordinate(2, 0, 1);
        using (var client = new MemcachedTextClient(cube.MemcachedPort(new Coordinate(0, 0, 0))))
        {
            Assert.Equal("STORED", client.Command($"set {key} 0 0 2", "v1"));
            Assert.Equal("v1", client.Get("get", key)!.Value.Data);
        }

        Assert.Equal(0, Camcube.Run(cube.StateDirectory, "cube", "kill", "2,0,1").Exit);
        var survivors = Enumerable.Range(0, 27).Select(i => CubeFixture.Shape.CoordinateAt(i)).Where(n => n != root).ToArray();
        Assert.True(cube.WaitFor(() => survivors.All(n => cube.Ask(n, "status").GetProperty("reachable").GetInt32() == 26), TimeSpan.FromSeconds(15)));
        using (var client = new MemcachedTextClient(cube.MemcachedPort(new Coordinate(0, 0, 0))))
        {
            Assert.Null(client.Get("get", key));
            Assert.Equal("STORED", client.Command($"set {key} 0 0 2", "v2"));
        }

        using (var other = new MemcachedTextClient(cube.MemcachedPort(new Coordinate(1, 2, 2))))
        {
            Assert.Equal("v2", other.Get("get", key)!.Value.Data);
        }

        Assert.Equal(0, Camcube.Run(cube.StateDirectory, "cube", "start", "2,0,1").Exit);
        Assert.True(cube.WaitFor(() => survivors.All(n => cube.Ask(n, "status").GetProperty("reachable").GetInt32() == 27), TimeSpan.FromSeconds(30)));
    }

    [Fact]
    public void AfterTheRootIsCutOffAndReconnectedNoNodeServesTheValueItHeldBefore()
    {
        // The root keeps running while cut off by all six cables; the others write its key at a
        // stand-in meanwhile. Back, it must not serve what it held before (it drops everything when
        // it loses the majority), nor may the stand-in (it flushes what the home takes back).
        var keySpace = KeySpace.For(CubeFixture.Shape);
        var root = new Coordinate(1, 1, 2);
        var key = Enumerable.Range(0, 10_000).Select(i => "partition:" + i)
            .First(k => keySpace.GetServersForKey(CamCube.Services.Cache.CacheKeys.MemId(System.Text.Encoding.ASCII.GetBytes(k)), 1)[0] == root);
        var others = Enumerable.Range(0, 27).Select(i => CubeFixture.Shape.CoordinateAt(i)).Where(n => n != root).ToArray();
        using (var client = new MemcachedTextClient(cube.MemcachedPort(new Coordinate(0, 0, 0))))
        {
            Assert.Equal("STORED", client.Command($"set {key} 0 0 6", "before"));
        }

        cube.CutOffWhile(root, () =>
        {
            Assert.True(cube.WaitFor(() => others.All(n => cube.Ask(n, "status").GetProperty("reachable").GetInt32() == 26), TimeSpan.FromSeconds(15)));
            using var client = new MemcachedTextClient(cube.MemcachedPort(new Coordinate(0, 0, 0)));
            Assert.Equal("STORED", client.Command($"set {key} 0 0 6", "during"));
            Assert.Equal("during", client.Get("get", key)!.Value.Data);
        });

        Assert.True(cube.WaitFor(() => others.Append(root).All(n => cube.Ask(n, "status").GetProperty("reachable").GetInt32() == 27), TimeSpan.FromSeconds(30)));
        foreach (var frontEnd in new[] { root, new Coordinate(0, 0, 0), new Coordinate(2, 2, 0) })
        {
            using var client = new MemcachedTextClient(cube.MemcachedPort(frontEnd));
            Assert.NotEqual("before", client.Get("get", key)?.Data);
        }
    }

    /// <summary>Reads how many keys memcslap says it set or got: its load line (<c>Time to set 250 keys:</c>) or its threads' line (<c>Time to get 1000 keys by 4 threads:</c>); -1 if absent.</summary>
    private static long KeysDone(string output, string test, bool byThreads)
    {
        var match = Regex.Match(output, $@"Time to {test}\s+(\d+) keys{(byThreads ? " by" : ":")}", RegexOptions.CultureInvariant);
        return match.Success ? long.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture) : -1;
    }

    /// <summary>Sums every node's <c>curr_items</c>: the items in the cube's stores.</summary>
    private long CubeItems()
    {
        long items = 0;
        for (long i = 0; i < CubeFixture.Shape.ServerCount; i++)
        {
            using var client = new MemcachedTextClient(cube.MemcachedPort(CubeFixture.Shape.CoordinateAt(i)));
            items += client.Stats()["curr_items"];
        }

        return items;
    }

    private (int Exit, string Output) RunMemcslap(Coordinate frontEnd, string test)
    {
        var tool = new[] { "/usr/bin/memcslap", "/usr/bin/memslap" }.FirstOrDefault(File.Exists);
        Assert.True(tool is not null, "memcslap is missing: install Debian's libmemcached-tools (.ci/run does)");
        return RunTool(tool!, "--servers=127.0.0.1:" + cube.MemcachedPort(frontEnd).ToString(CultureInfo.InvariantCulture), "--concurrency=4", "--execute-number=250", "--test=" + test);
    }

    private static (int Exit, string Output) RunTool(string path, params string[] args)
    {
        var start = new ProcessStartInfo(path) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(TimeSpan.FromMinutes(2)))
        {
            process.Kill();
            throw new TimeoutException($"{path} did not finish within 2 minutes.");
        }

        return (process.ExitCode, output.Result + error.Result);
    }
}
