using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using System.Text.RegularExpressions;

namespace CamCube.Integration.Tests;

/// <summary>
/// The replicated key-value store on the 27-process cube, through its memcached front-ends (port
/// KeyValueBasePort + i): acknowledged writes survive nodes killed with SIGKILL and restarted, a
/// gets/cas loop counts exactly, and memcached's own test suite passes.
/// </summary>
[Collection(SharedCube.Name)]
public sealed class KeyValueCubeTests(CubeFixture cube)
{
    private static readonly Coordinate[] s_writers = [new(0, 0, 0), new(1, 2, 2), new(2, 1, 0)];
    private static readonly Coordinate[] s_killed = [new(1, 1, 1), new(2, 0, 2)];

    [Fact]
    public async Task EveryAcknowledgedWriteIsReadableAfterTwoNodesAreKilledAndRestartedUnderWrites()
    {
        var acknowledged = new ConcurrentDictionary<string, string>(StringComparer.Ordinal);
        var duringOutage = 0;
        var outage = false;
        using var stop = new CancellationTokenSource();
        var writers = s_writers.Select((node, w) => Task.Factory.StartNew(
            () =>
            {
                // Each writer writes its own keys in turn through its own node's front-end, and keeps what was STORED.
                for (var n = 0; !stop.IsCancellationRequested && n < 100_000; n++)
                {
                    var key = string.Create(CultureInfo.InvariantCulture, $"kvit:{w}:{n}");
                    var value = string.Create(CultureInfo.InvariantCulture, $"v{n}-{w}");
                    if (TrySet(node, key, value))
                    {
                        acknowledged[key] = value;
                        if (Volatile.Read(ref outage))
                        {
                            Interlocked.Increment(ref duringOutage);
                        }
                    }
                }
            },
            stop.Token,
            TaskCreationOptions.LongRunning,
            TaskScheduler.Default)).ToArray();

        var others = Enumerable.Range(0, 27).Select(i => CubeFixture.Shape.CoordinateAt(i)).Where(n => !s_killed.Contains(n)).ToArray();
        try
        {
            Assert.True(Wait.Until(() => acknowledged.Count >= 30, TimeSpan.FromSeconds(60)), "the writers stored nothing before the kills");
            Volatile.Write(ref outage, true);
            foreach (var node in s_killed)
            {
                Assert.Equal(0, Camcube.Run(cube.StateDirectory, "cube", "kill", Format(node)).Exit);
            }

            Assert.True(cube.WaitFor(() => others.All(n => cube.Ask(n, "status").GetProperty("reachable").GetInt32() == 25), TimeSpan.FromSeconds(20)));
            var beforeRestart = Volatile.Read(ref duringOutage);
            Assert.True(Wait.Until(() => Volatile.Read(ref duringOutage) >= beforeRestart + 30, TimeSpan.FromSeconds(60)), "no writes were acknowledged while two nodes were down");
            foreach (var node in s_killed)
            {
                Assert.Equal(0, Camcube.Run(cube.StateDirectory, "cube", "start", Format(node)).Exit);
            }

            Assert.True(cube.WaitFor(() => others.All(n => cube.Ask(n, "status").GetProperty("reachable").GetInt32() == 27), TimeSpan.FromSeconds(30)));
            Volatile.Write(ref outage, false);
            var afterRestart = acknowledged.Count;
            Assert.True(Wait.Until(() => acknowledged.Count >= afterRestart + 30, TimeSpan.FromSeconds(60)), "no writes were acknowledged after the restarts");
        }
        finally
        {
            stop.Cancel();
            await Task.WhenAll(writers).WaitAsync(TimeSpan.FromSeconds(60));
        }

        // Every acknowledged write reads back, through a restarted node's front-end and another.
        foreach (var reader in new[] { s_killed[0], new Coordinate(0, 2, 1) })
        {
            using var client = new MemcachedTextClient(cube.KeyValuePort(reader));
            var lost = acknowledged.Where(p => client.Get("get", p.Key)?.Data != p.Value).Select(p => p.Key).Take(5).ToArray();
            Assert.True(lost.Length == 0, $"{lost.Length}+ of {acknowledged.Count} acknowledged writes read otherwise through {Format(reader)}, e.g. {string.Join(", ", lost)} ({duringOutage} during the outage)");
        }
    }

    [Fact]
    public async Task AGetsCasLoopCountsExactlyWhenThreeFrontEndsRaceOnOneKey()
    {
        const int successesEach = 15;
        using (var setup = new MemcachedTextClient(cube.KeyValuePort(s_writers[0])))
        {
            Assert.Equal("STORED", setup.Command("set kvit:counter 0 0 1", "0"));
        }

        var conflicts = 0;
        var racers = s_writers.Select(node => Task.Factory.StartNew(
            () =>
            {
                using var client = new MemcachedTextClient(cube.KeyValuePort(node));
                for (var successes = 0; successes < successesEach;)
                {
                    // VALUE kvit:counter <flags> <bytes> <cas>
                    var (header, data) = ReadServed(client, "gets", "kvit:counter")!.Value;
                    var unique = header.Split(' ')[4];
                    var next = (long.Parse(data, CultureInfo.InvariantCulture) + 1).ToString(CultureInfo.InvariantCulture);
                    var reply = client.Command($"cas kvit:counter 0 0 {next.Length} {unique}", next);
                    if (reply == "STORED")
                    {
                        successes++;
                    }
                    else
                    {
                        Assert.Equal("EXISTS", reply);
                        Interlocked.Increment(ref conflicts);
                    }
                }
            },
            CancellationToken.None,
            TaskCreationOptions.LongRunning,
            TaskScheduler.Default)).ToArray();
        await Task.WhenAll(racers).WaitAsync(TimeSpan.FromMinutes(2));

        using var check = new MemcachedTextClient(cube.KeyValuePort(new Coordinate(2, 2, 2)));
        Assert.Equal((3 * successesEach).ToString(CultureInfo.InvariantCulture), ReadServed(check, "get", "kvit:counter")!.Value.Data);
    }

    /// <summary>
    /// A read, asked again while the store answers SERVER_ERROR (its primary could not serve it within
    /// the store's request time, as while links flap after restarts): a read changes nothing, so asking again is safe.
    /// </summary>
    private static (string Header, string Data)? ReadServed(MemcachedTextClient client, string verb, string key)
    {
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                return client.Get(verb, key);
            }
            catch (MemcachedErrorException ex) when (attempt < 5 && ex.Message.Contains("SERVER_ERROR", StringComparison.Ordinal))
            {
                // Asked again below.
            }
        }
    }

    [Fact]
    public async Task MemcapablePassesEveryAsciiTestAgainstTheStoresFrontEnd()
    {
        var tool = new[] { "/usr/bin/memccapable", "/usr/bin/memcapable" }.FirstOrDefault(File.Exists);
        Assert.True(tool is not null, "memccapable is missing: install Debian's libmemcached-tools (.ci/run does)");
        using var process = Process.Start(new ProcessStartInfo(tool!, ["-a", "-t", "15", "-h", "127.0.0.1", "-p", cube.KeyValuePort(new Coordinate(1, 0, 2)).ToString(CultureInfo.InvariantCulture)])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        })!;
        var output = process.StandardOutput.ReadToEndAsync();
        var errors = await process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync().WaitAsync(TimeSpan.FromMinutes(2));
        var all = await output + errors;

        // memcapable marks each test [pass], [skip] or [FAIL]; its ASCII suite has 27.
        Assert.True(process.ExitCode == 0, all);
        Assert.Equal(27, Regex.Count(all, @"^ascii .*\[pass\]$", RegexOptions.Multiline | RegexOptions.CultureInvariant));
    }

    [Fact]
    public void KvStatsOnTheControlSocketCountsTheWritesThePrimariesAcknowledgedAndRefusesArguments()
    {
        const int Writes = 12;
        var before = SumOverNodes("WritesAcknowledged");
        using (var client = new MemcachedTextClient(cube.KeyValuePort(new Coordinate(2, 2, 1))))
        {
            for (var i = 0; i < Writes; i++)
            {
                Assert.Equal("STORED", client.Command(string.Create(CultureInfo.InvariantCulture, $"set kvstats:{i} 0 0 1"), "x"));
            }
        }

        // Each acknowledged write is counted once, by its key's primary (writes of other tests may add to it).
        Assert.True(SumOverNodes("WritesAcknowledged") - before >= Writes);
        var refused = cube.Ask(new Coordinate(0, 0, 0), "kv-stats now");
        Assert.Contains("kv-stats takes no arguments", refused.GetProperty("error").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public void CubeKvStatsPrintsEachNodesCountersAndTheirSumAndRefusesABadCoordinate()
    {
        using (var client = new MemcachedTextClient(cube.KeyValuePort(new Coordinate(0, 1, 2))))
        {
            Assert.Equal("STORED", client.Command("set kvstats:cli 0 0 1", "y"));
        }

        var (exit, output, error) = Camcube.Run(cube.StateDirectory, "cube", "kv-stats");
        Assert.True(exit == 0, output + error);
        var lines = output.TrimEnd('\n').Split('\n');
        Assert.Equal(CubeFixture.Shape.ServerCount + 1, lines.Length);
        Assert.StartsWith("0,0,0: WritesAcknowledged=", lines[0], StringComparison.Ordinal);
        var perNode = lines[..^1].Sum(l => Counter(l, "WritesAcknowledged"));
        Assert.StartsWith("total: WritesAcknowledged=", lines[^1], StringComparison.Ordinal);
        Assert.Equal(perNode, Counter(lines[^1], "WritesAcknowledged"));
        Assert.True(perNode >= 1);

        // The reliable transport's counters follow the store's, summed as well.
        Assert.Equal(lines[..^1].Sum(l => Counter(l, "ReliablePacketsSentAgain")), Counter(lines[^1], "ReliablePacketsSentAgain"));
        Assert.Contains(" ReliableDuplicatePackets=", lines[^1], StringComparison.Ordinal);
        Assert.Equal(lines[..^1].Sum(l => Counter(l, "ReliableDuplicateRequests")), Counter(lines[^1], "ReliableDuplicateRequests"));

        // A time is not summed: the total is the largest node's (the front-end's, which asked a primary).
        Assert.Equal(lines[..^1].Max(l => Counter(l, "ReliableMeanLearnedTimeoutUs")), Counter(lines[^1], "ReliableMeanLearnedTimeoutUs"));
        Assert.True(Counter(lines[^1], "ReliableMeanLearnedTimeoutUs") > 0);

        var one = Camcube.Run(cube.StateDirectory, "cube", "kv-stats", "2,2,2");
        Assert.Equal(0, one.Exit);
        Assert.StartsWith("WritesAcknowledged=", one.Out, StringComparison.Ordinal);

        var bad = Camcube.Run(cube.StateDirectory, "cube", "kv-stats", "3,0,0");
        Assert.Equal(2, bad.Exit);
        Assert.Contains("3,0,0", bad.Error, StringComparison.Ordinal);
    }

    [Fact]
    public void SetRightAfterAReplicaIsKilledIsStoredOnTheNewReplicaSet()
    {
        // A key none of whose servers is the front-end, (0,0,0): its last replica is killed, and the set follows at once.
        var frontEnd = new Coordinate(0, 0, 0);
        var keySpace = KeySpace.For(CubeFixture.Shape);
        var (key, servers) = Enumerable.Range(0, 1000)
            .Select(i => string.Create(CultureInfo.InvariantCulture, $"kvcrash:{i}"))
            .Select(k => (Key: k, Servers: keySpace.GetServersForKey(Key.Hash(System.Text.Encoding.ASCII.GetBytes(k)), 3)))
            .First(k => !k.Servers.Contains(frontEnd) && !k.Servers.Any(s_killed.Contains));
        var victim = servers[2];
        var others = Enumerable.Range(0, 27).Select(i => CubeFixture.Shape.CoordinateAt(i)).Where(n => n != victim).ToArray();
        using var client = new MemcachedTextClient(cube.KeyValuePort(frontEnd));
        Assert.Equal("STORED", client.Command($"set {key} 0 0 3", "one"));

        Assert.Equal(0, Camcube.Run(cube.StateDirectory, "cube", "kill", Format(victim)).Exit);
        try
        {
            Assert.Equal("STORED", client.Command($"set {key} 0 0 3", "two"));
            Assert.Equal("two", client.Get("get", key)?.Data);
        }
        finally
        {
            Assert.Equal(0, Camcube.Run(cube.StateDirectory, "cube", "start", Format(victim)).Exit);
            Assert.True(cube.WaitFor(() => others.All(n => cube.Ask(n, "status").GetProperty("reachable").GetInt32() == 27), TimeSpan.FromSeconds(30)));
        }

        Assert.True(SumOverNodes("WritesFinishedOnANewSet") >= 1);
    }

    private static long Counter(string line, string name) =>
        long.Parse(line.Split(' ').Single(p => p.StartsWith(name + "=", StringComparison.Ordinal))[(name.Length + 1)..], CultureInfo.InvariantCulture);

    /// <summary>One counter of <c>kv-stats</c> summed over the 27 nodes.</summary>
    private long SumOverNodes(string counter)
    {
        long sum = 0;
        for (var i = 0; i < CubeFixture.Shape.ServerCount; i++)
        {
            var line = cube.Ask(CubeFixture.Shape.CoordinateAt(i), "kv-stats").GetProperty("result").GetString()!;
            var pair = line.Split(' ').Single(p => p.StartsWith(counter + "=", StringComparison.Ordinal));
            sum += long.Parse(pair[(counter.Length + 1)..], CultureInfo.InvariantCulture);
        }

        return sum;
    }

    /// <summary>One set through a node's front-end; false when it was not acknowledged (an error, a closed connection, no answer).</summary>
    private bool TrySet(Coordinate node, string key, string value)
    {
        try
        {
            using var client = new MemcachedTextClient(cube.KeyValuePort(node));
            return client.Command($"set {key} 0 0 {value.Length}", value) == "STORED";
        }
        catch (Exception ex) when (ex is IOException or System.Net.Sockets.SocketException)
        {
            return false;
        }
    }

    private static string Format(Coordinate c) => string.Create(CultureInfo.InvariantCulture, $"{c.X},{c.Y},{c.Z}");
}
