using System.Globalization;
using System.Text;
using CamCube.Services.Cache;
using CamCube.Testing.Freshness;
using Xunit.Abstractions;

namespace CamCube.Integration.Tests;

/// <summary>
/// The cache's guarantee on the 27-process cube: clients on five nodes' memcached front-ends set,
/// delete and get three hot keys while every node drops 2% of the frames it receives, one key's
/// root is killed with SIGKILL and restarted (empty), and each other key's root in turn is cut off
/// by its six cables and reconnected. Reads may miss (a failed root's items are gone), but no hit may return a value that
/// an acknowledged write had superseded before the read began (<see cref="FreshnessChecker"/>).
/// </summary>
[Collection(SharedCube.Name)]
public sealed class CacheHistoryTests(CubeFixture cube, ITestOutputHelper output)
{
    private const int ClientsPerFrontEnd = 2;

    [Fact]
    public async Task NoHitIsStaleThroughFiveFrontEndsUnderLossWhileRootsAreKilledAndCutOff()
    {
        var keySpace = KeySpace.For(CubeFixture.Shape);
        Coordinate RootOf(string key) => keySpace.GetServersForKey(CacheKeys.MemId(Encoding.ASCII.GetBytes(key)), 1)[0];
        var frontEnds = new[] { 0, 5, 10, 20, 25 }.Select(i => CubeFixture.Shape.CoordinateAt(i)).ToArray();
        var keys = Enumerable.Range(0, 10_000).Select(i => string.Create(CultureInfo.InvariantCulture, $"cachehist:{i}"))
            .Where(k => !frontEnds.Contains(RootOf(k)))
            .DistinctBy(RootOf)
            .Take(3)
            .ToArray();
        var clients = Enumerable.Range(0, frontEnds.Length * ClientsPerFrontEnd)
            .Select(i => new MemcachedCacheHistoryClient(i, cube.MemcachedPort(frontEnds[i % frontEnds.Length]), keys, new Random(i)))
            .ToArray();
        await using var running = new HistoryClients<MemcachedCacheHistoryClient>(clients, c => c.RunOne(), c => c.History.Count, c => c.Answered);
        var killed = RootOf(keys[0]);
        cube.DropEverywhere("0.02");
        try
        {
            running.AwaitAnswers(300, "before the faults");
            Assert.Equal(0, Camcube.Run(cube.StateDirectory, "cube", "kill", Format(killed)).Exit);
            running.AwaitAnswers(200, $"after {Format(killed)} was killed");
            Assert.Equal(0, Camcube.Run(cube.StateDirectory, "cube", "start", Format(killed)).Exit);
            running.AwaitAnswers(200, $"after {Format(killed)} restarted");
            foreach (var cutOff in keys.Skip(1).Select(RootOf))
            {
                CutOffAndReconnect(running, cutOff);
            }
        }
        finally
        {
            cube.DropEverywhere("0");
            await running.StopAsync();
        }

        Assert.True(cube.WaitFor(() => Enumerable.Range(0, 27).All(i => cube.Ask(CubeFixture.Shape.CoordinateAt(i), "status").GetProperty("reachable").GetInt32() == 27), TimeSpan.FromSeconds(30)), "the cube did not heal");
        var history = clients.SelectMany(c => c.History).ToList();
        var hits = history.Count(r => r.Outcome == CacheHistoryOutcome.Hit);
        var violations = FreshnessChecker.Violations(history, missesAllowed: true);
        output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{history.Count} requests on keys {string.Join(", ", keys)} (roots {string.Join(", ", keys.Select(k => Format(RootOf(k))))}), {running.Answered} answered, {hits} hits, {history.Count(r => r.Outcome == CacheHistoryOutcome.Unknown)} unknown"));
        foreach (var line in violations.Take(10))
        {
            output.WriteLine(line);
        }

        Assert.True(hits >= 200, $"only {hits} reads hit: the workload did not exercise the copies");
        Assert.Empty(violations);
    }

    /// <summary>Cuts <paramref name="root"/>'s six cables while the clients run, then reconnects it while they still run.</summary>
    private void CutOffAndReconnect(HistoryClients<MemcachedCacheHistoryClient> running, Coordinate root)
    {
        cube.CutOffWhile(root, () => running.AwaitAnswers(200, $"after {Format(root)} was cut off"));
        running.AwaitAnswers(200, $"after {Format(root)} was reconnected");
    }

    private static string Format(Coordinate c) => string.Create(CultureInfo.InvariantCulture, $"{c.X},{c.Y},{c.Z}");
}
