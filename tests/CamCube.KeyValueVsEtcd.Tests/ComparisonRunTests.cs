using System.Globalization;
using System.Text.RegularExpressions;
using CamCube.UdpDrivers;

namespace CamCube.KeyValueVsEtcd.Tests;

/// <summary>The driver's order of cells and its table, on fake in-process stores (not a result).</summary>
public sealed class ComparisonRunTests
{
    [Fact]
    public async Task RunsEveryCellOnEveryTargetInAlternatingOrderWhenTwoTargetsAreGiven()
    {
        await using var first = new KeyValueStoreTarget("first", [new InMemoryKeyValueStore()], "none");
        await using var second = new KeyValueStoreTarget("second", [new InMemoryKeyValueStore()], "none");
        var options = new DriverOptions { ValueSizes = [8, 32], Concurrencies = [1, 2], OperationsMax = 10, KeysPerWorker = 2, CellDuration = TimeSpan.FromMinutes(10) };
        using var log = new StringWriter();

        var results = await ComparisonRun.RunAsync([first, second], options, log, CancellationToken.None);

        Assert.Equal(2 * 2 * 3 * 2, results.Count);
        Assert.All(results, r => Assert.Equal((10, 0), (r.Operations, r.Errors)));
        Assert.Equal(["first", "second", "second", "first", "first", "second"], results.Take(6).Select(r => r.Target));
        Assert.Equal(
            [(BenchOperation.Put, 8, 1), (BenchOperation.Get, 8, 1), (BenchOperation.Cas, 8, 1), (BenchOperation.Put, 8, 2)],
            results.Where(r => r.Target == "first").Take(4).Select(r => (r.Spec.Operation, r.Spec.ValueBytes, r.Spec.Concurrency)));
        Assert.Equal((4 * 3) + 24, log.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries).Length);
    }

    [Fact]
    public async Task PreloadIsRepeatedUntilNoWriteFailsWhenTheStoreTimesOutAtFirst()
    {
        var store = new InMemoryKeyValueStore { TimeOutWrites = 5 };
        await using var target = new KeyValueStoreTarget("slow-start", [store], "none");
        var options = new DriverOptions { ValueSizes = [8], Concurrencies = [2], OperationsMax = 10, KeysPerWorker = 4, CellDuration = TimeSpan.FromMinutes(10) };
        using var log = new StringWriter();

        var results = await ComparisonRun.RunAsync([target], options, log, CancellationToken.None);

        var preloads = log.ToString().Split('\n').Where(line => line.Contains("preload", StringComparison.Ordinal)).ToList();
        Assert.Equal(2, preloads.Count);
        Assert.Contains("3 ops", preloads[0], StringComparison.Ordinal);
        Assert.Contains("5 errors", preloads[0], StringComparison.Ordinal);
        Assert.Contains("8 ops", preloads[1], StringComparison.Ordinal);
        Assert.Contains("0 errors", preloads[1], StringComparison.Ordinal);
        Assert.All(results, r => Assert.Equal((10, 0), (r.Operations, r.Errors)));
    }

    [Fact]
    public async Task WarmUpRunsPutGetAndCasUncountedBeforeTheFirstCountedCellUntilItsTimePassed()
    {
        await using var target = new KeyValueStoreTarget("warm", [new InMemoryKeyValueStore()], "none");
        var options = new DriverOptions { ValueSizes = [8, 32], Concurrencies = [1, 2], OperationsMax = 10, KeysPerWorker = 2, CellDuration = TimeSpan.FromMinutes(10), WarmUp = TimeSpan.FromMilliseconds(50) };
        using var log = new StringWriter();

        var results = await ComparisonRun.RunAsync([target], options, log, CancellationToken.None);

        var lines = log.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);
        var warmUps = lines.Select((line, i) => (line, i)).Where(l => l.line.Contains("warm-up warm:", StringComparison.Ordinal)).ToList();
        var (warmUp, at) = Assert.Single(warmUps);
        Assert.True(at < Array.FindIndex(lines, line => line.Contains(" cell ", StringComparison.Ordinal)), "the warm-up ran after a counted cell");
        var operations = int.Parse(Regex.Match(warmUp, @"warm: (\d+) ops \(put, get, cas\)").Groups[1].Value, CultureInfo.InvariantCulture);
        Assert.True(operations >= 3 * 10, warmUp);
        Assert.Contains(", 0 errors", warmUp, StringComparison.Ordinal);
        Assert.Equal(2 * 2 * 3, results.Count);
    }

    [Fact]
    public void TableShowsEachTargetAndTheRatioToTheFirstWhenTwoTargetsAreGiven()
    {
        var spec = new CellSpec(BenchOperation.Cas, 128, 16, 1000, TimeSpan.FromSeconds(1));
        CellResult[] results =
        [
            new("etcd", spec, 1000, 0, 2.0, new LatencySummary(1000, 100, 1500, 8000, 9000), null, 0.25),
            new("store", spec, 1000, 1, 1.0, new LatencySummary(1000, 100, 700, 2000, 3000), "x"),
        ];

        var lines = ResultTable.Format(results, ["etcd", "store"]).Split(Environment.NewLine);

        Assert.Equal("| op | value B | conc. | etcd ops/s | etcd p50 / p99 ms | etcd CPU µs/op | store ops/s | store p50 / p99 ms | store CPU µs/op | store/etcd ops/s | store/etcd p99 | errors |", lines[0]);
        Assert.Equal("| cas | 128 | 16 | 500 | 1.50 / 8.00 | 250 | 1,000 | 0.70 / 2.00 | - | 2.00x | 0.25x | 0 / 1 |", lines[2]);
    }
}
