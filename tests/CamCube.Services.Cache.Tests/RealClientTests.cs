using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text.RegularExpressions;
using CamCube.Testing;

namespace CamCube.Services.Cache.Tests;

/// <summary>Debian's libmemcached-tools against a front-end of a real-time 3x3x3 cube (apt-get install libmemcached-tools).</summary>
[Collection(RealTimeGroup.Name)]
public class RealClientTests(FrontEndCubeFixture cube) : IClassFixture<FrontEndCubeFixture>
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(120);

    [ToolFact("memccapable", "memcapable")]
    public async Task MemcapablePassesEveryAsciiTest()
    {
        var tool = ToolFactAttribute.Locate("memccapable", "memcapable")!;
        var (exitCode, output) = await RunAsync(tool, $"-a -v -t 10 -h 127.0.0.1 -p {cube.First.LocalEndPoint.Port.ToString(CultureInfo.InvariantCulture)}");
        // memcapable marks each test [pass], [skip] or [FAIL]; its ASCII suite has 27.
        Assert.True(exitCode == 0, output);
        Assert.DoesNotContain("[FAIL]", output, StringComparison.Ordinal);
        Assert.True(Regex.Count(output, @"^ascii .*\[pass\]$", RegexOptions.Multiline | RegexOptions.CultureInvariant) == 27, output);
    }

    [ToolFact("memcslap", "memslap")]
    public async Task MemcslapStoresEachOfItsKeysOnceWhenFourThreadsSetTheSameKeys()
    {
        var tool = ToolFactAttribute.Locate("memcslap", "memslap")!;
        var statsBefore = await StatsAsync(cube.Second.LocalEndPoint);
        var itemsBefore = await cube.StoredItemsAsync();

        var (exitCode, output) = await RunAsync(tool, $"--servers=127.0.0.1:{cube.Second.LocalEndPoint.Port.ToString(CultureInfo.InvariantCulture)} --concurrency=4 --execute-number=500 --test=set");

        // memcslap exits 0 whatever the replies; it counts only the sets that were STORED (a
        // thread stops at its first failure). Each of its 4 threads sets the same 500 random keys.
        Assert.True(exitCode == 0, output);
        Assert.True(KeysDone(output, "set", byThreads: true) == 2_000, output);
        var stats = await StatsAsync(cube.Second.LocalEndPoint);
        Assert.Equal(2_000, stats["cmd_set"] - statsBefore["cmd_set"]);
        Assert.Equal(500, await cube.StoredItemsAsync() - itemsBefore);
    }

    [ToolFact("memcslap", "memslap")]
    public async Task MemcslapFindsEveryKeyItLoadedWhenItsThreadsReadThemBack()
    {
        var tool = ToolFactAttribute.Locate("memcslap", "memslap")!;
        var statsBefore = await StatsAsync(cube.Second.LocalEndPoint);

        var (exitCode, output) = await RunAsync(tool, $"--servers=127.0.0.1:{cube.Second.LocalEndPoint.Port.ToString(CultureInfo.InvariantCulture)} --concurrency=4 --execute-number=500 --test=get");

        // It loads 500 keys, then each of 4 threads gets 500 of them at random; it counts the hits only.
        Assert.True(exitCode == 0, output);
        Assert.True(KeysDone(output, "set", byThreads: false) == 500, output);
        Assert.True(KeysDone(output, "get", byThreads: true) == 2_000, output);
        var stats = await StatsAsync(cube.Second.LocalEndPoint);
        Assert.Equal((500, 2_000, 2_000, 0), (stats["cmd_set"] - statsBefore["cmd_set"], stats["cmd_get"] - statsBefore["cmd_get"], stats["get_hits"] - statsBefore["get_hits"], stats["get_misses"] - statsBefore["get_misses"]));
    }

    /// <summary>Reads how many keys memcslap says it set or got: its load line (<c>Time to set 500 keys:</c>) or its threads' line (<c>Time to get 2000 keys by 4 threads:</c>); -1 if absent.</summary>
    private static long KeysDone(string output, string test, bool byThreads)
    {
        var match = Regex.Match(output, $@"Time to {test}\s+(\d+) keys{(byThreads ? " by" : ":")}", RegexOptions.CultureInvariant);
        return match.Success ? long.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture) : -1;
    }

    /// <summary>Sends <c>stats</c> to a front-end and returns its counters by name.</summary>
    private static async Task<Dictionary<string, long>> StatsAsync(IPEndPoint frontEnd)
    {
        await using var client = await TextClient.ConnectAsync(frontEnd);
        var stats = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var line in (await client.AskAsync("stats\r\n", "END\r\n")).Split("\r\n"))
        {
            var parts = line.Split(' ');
            if (parts is ["STAT", var name, var value] && long.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var number))
            {
                stats[name] = number;
            }
        }

        return stats;
    }

    private static async Task<(int ExitCode, string Output)> RunAsync(string tool, string arguments)
    {
        var start = new ProcessStartInfo(tool, arguments) { RedirectStandardOutput = true, RedirectStandardError = true };
        using var process = Process.Start(start)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(s_timeout);
        try
        {
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{tool} {arguments} did not finish within {s_timeout}: {await stdout}{await stderr}");
        }

        return (process.ExitCode, $"{tool} {arguments} exited with {process.ExitCode}:\n{await stdout}\n{await stderr}");
    }
}
