using System.Globalization;

namespace CamCube.KeyValueVsEtcd;

/// <summary>
/// Runs every cell (value size x concurrency x operation) on every target. Per value size every
/// target's keys are written first, then read and swapped a little (not counted); then per cell the targets take turns, the order
/// alternating from cell to cell, so both see the same minutes of a shared machine.
/// </summary>
internal static class ComparisonRun
{
    /// <summary>The operations in the order a size's cells run them (puts first, so reads find values).</summary>
    public static readonly IReadOnlyList<BenchOperation> Operations = [BenchOperation.Put, BenchOperation.Get, BenchOperation.Cas];

    /// <summary>The most times a target's keys are written before the cells of a size, while some writes fail.</summary>
    public const int PreloadAttemptsMax = 3;

    /// <summary>The operations of each uncounted warm-up of the get and CAS paths, per target and value size.</summary>
    public const int WarmUpOperations = 200;

    /// <summary>Runs the cells.</summary>
    /// <param name="targets">The targets, the baseline first.</param>
    /// <param name="options">Sizes, concurrencies and bounds.</param>
    /// <param name="log">Where a line per cell goes as it ends.</param>
    /// <param name="cancellationToken">Cancels the run.</param>
    /// <returns>Every target's result in every cell, in run order.</returns>
    public static async Task<IReadOnlyList<CellResult>> RunAsync(IReadOnlyList<IBenchTarget> targets, DriverOptions options, TextWriter log, CancellationToken cancellationToken)
    {
        var keys = new BenchKeys(RunId(), options.KeysPerWorker);
        var results = new List<CellResult>();
        var turn = 0;
        foreach (var size in options.ValueSizes)
        {
            var value = Value(size);
            foreach (var target in targets)
            {
                // A store just started may time out at first (start-up work); its keys are written again until none fails.
                for (var attempt = 1; attempt <= PreloadAttemptsMax; attempt++)
                {
                    var preload = await CellRunner.PreloadAsync(target, keys, options.Concurrencies.Max(), value, cancellationToken).ConfigureAwait(false);
                    await log.WriteLineAsync(Line("preload", preload)).ConfigureAwait(false);
                    if (preload.Errors == 0)
                    {
                        break;
                    }
                }

                foreach (var operation in Operations.Skip(1))
                {
                    // Not counted: the read and CAS paths' first requests (compilation, connections).
                    var warmUp = new CellSpec(operation, size, options.Concurrencies.Max(), Math.Min(options.OperationsMax, WarmUpOperations), options.CellDuration);
                    await log.WriteLineAsync(Line("warm-up", await CellRunner.RunAsync(target, warmUp, keys, value, cancellationToken).ConfigureAwait(false))).ConfigureAwait(false);
                }

                if (size == options.ValueSizes[0] && options.WarmUp > TimeSpan.Zero)
                {
                    await WarmUpAsync(target, options, keys, value, log, cancellationToken).ConfigureAwait(false);
                }
            }

            foreach (var concurrency in options.Concurrencies)
            {
                foreach (var operation in Operations)
                {
                    var spec = new CellSpec(operation, size, concurrency, options.OperationsMax, options.CellDuration);
                    for (var t = 0; t < targets.Count; t++)
                    {
                        var target = targets[(turn + t) % targets.Count];
                        var result = await CellRunner.RunAsync(target, spec, keys, value, cancellationToken).ConfigureAwait(false);
                        await log.WriteLineAsync(Line("cell", result)).ConfigureAwait(false);
                        results.Add(result);
                    }

                    turn++;
                }
            }
        }

        return results;
    }

    /// <summary>Runs uncounted put, get and CAS in turn at the highest concurrency until <see cref="DriverOptions.WarmUp"/> passed; one line for all of it.</summary>
    private static async Task WarmUpAsync(IBenchTarget target, DriverOptions options, BenchKeys keys, ReadOnlyMemory<byte> value, TextWriter log, CancellationToken cancellationToken)
    {
        var clock = TimeProvider.System;
        var start = clock.GetTimestamp();
        long operations = 0, errors = 0;
        while (clock.GetElapsedTime(start) < options.WarmUp)
        {
            foreach (var operation in Operations)
            {
                var spec = new CellSpec(operation, value.Length, options.Concurrencies.Max(), Math.Min(options.OperationsMax, WarmUpOperations), options.CellDuration);
                var result = await CellRunner.RunAsync(target, spec, keys, value, cancellationToken).ConfigureAwait(false);
                operations += result.Operations;
                errors += result.Errors;
            }
        }

        await log.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
            $"[{clock.GetUtcNow():HH:mm:ss}] warm-up {target.Name}: {operations} ops (put, get, cas) in {clock.GetElapsedTime(start).TotalSeconds:F1} s, {errors} errors")).ConfigureAwait(false);
    }

    /// <summary>A value of <paramref name="size"/> bytes, the same in every run (seeded).</summary>
    /// <param name="size">The size.</param>
    /// <returns>The value.</returns>
    public static ReadOnlyMemory<byte> Value(int size)
    {
        var value = new byte[size];
#pragma warning disable CA5394 // a benchmark's payload, not a secret
        new Random(size).NextBytes(value);
#pragma warning restore CA5394
        return value;
    }

    private static string RunId() => TimeProvider.System.GetUtcNow().ToUnixTimeMilliseconds().ToString("x", CultureInfo.InvariantCulture);

    private static string Line(string what, CellResult r) => string.Create(CultureInfo.InvariantCulture,
        $"[{TimeProvider.System.GetUtcNow():HH:mm:ss}] {what} {r.Target} {r.Spec.Operation} {r.Spec.ValueBytes} B c{r.Spec.Concurrency}: {r.Operations} ops in {r.Seconds:F2} s = {r.OperationsPerSecond:F0}/s, p50 {r.Latency.Median / 1000:F2} ms, p99 {r.Latency.P99 / 1000:F2} ms, server CPU {r.ServerCpuMicrosecondsPerOperation:F0} us/op, {r.Errors} errors{(r.FirstError is null ? "" : $" (first: {r.FirstError})")}; load {Load()}");

    private static string Load() => File.Exists("/proc/loadavg") ? File.ReadAllText("/proc/loadavg").Split(' ')[0] : "n/a";
}
