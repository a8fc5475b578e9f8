using System.Diagnostics;
using System.Globalization;

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
    public void MemcachedsOwnTestSuitePassesAgainstAFrontEnd()
    {
        var tool = new[] { "/usr/bin/memccapable", "/usr/bin/memcapable" }.FirstOrDefault(File.Exists);
        Assert.True(tool is not null, "memccapable is missing: install Debian's libmemcached-tools (.ci/run does)");
        var (exit, output) = RunTool(tool!, "-a", "-h", "127.0.0.1", "-p", cube.MemcachedPort(new Coordinate(1, 1, 1)).ToString(CultureInfo.InvariantCulture));
        Assert.True(exit == 0, output);
        Assert.Contains("All tests passed", output, StringComparison.Ordinal);
        Assert.DoesNotContain("[fail]", output, StringComparison.Ordinal);
    }

    [Fact]
    public void MemcslapRunsABoundedLoadAgainstAFrontEnd()
    {
        var tool = new[] { "/usr/bin/memcslap", "/usr/bin/memslap" }.FirstOrDefault(File.Exists);
        Assert.True(tool is not null, "memcslap is missing: install Debian's libmemcached-tools (.ci/run does)");
        var (exit, output) = RunTool(tool!, "--servers=127.0.0.1:" + cube.MemcachedPort(new Coordinate(2, 2, 2)).ToString(CultureInfo.InvariantCulture), "--concurrency=4", "--execute-number=250");
        Assert.True(exit == 0, output);
        Assert.Contains("Time to set", output, StringComparison.Ordinal);
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
