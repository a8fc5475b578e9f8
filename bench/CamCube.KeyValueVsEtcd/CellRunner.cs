using System.Diagnostics;

namespace CamCube.KeyValueVsEtcd;

/// <summary>
/// Runs one cell against one target: <see cref="CellSpec.Concurrency"/> workers, each with one
/// request outstanding on keys of its own, until <see cref="CellSpec.OperationsMax"/> operations
/// were started or <see cref="CellSpec.Duration"/> passed, whichever comes first.
/// </summary>
internal static class CellRunner
{
    /// <summary>How long past its duration a cell may take for its last requests before they are cancelled.</summary>
    public static readonly TimeSpan Grace = TimeSpan.FromSeconds(30);

    /// <summary>Writes every key of <paramref name="workers"/> workers for values of <paramref name="value"/>'s size once (not counted; also the target's warm-up).</summary>
    /// <param name="target">The target.</param>
    /// <param name="keys">The run's keys.</param>
    /// <param name="workers">The most workers any cell of this size uses.</param>
    /// <param name="value">The value.</param>
    /// <param name="cancellationToken">Cancels the writes.</param>
    /// <returns>The cell-like result of the writes (errors count).</returns>
    public static Task<CellResult> PreloadAsync(IBenchTarget target, BenchKeys keys, int workers, ReadOnlyMemory<byte> value, CancellationToken cancellationToken) =>
        RunAsync(target, new CellSpec(BenchOperation.Put, value.Length, workers, workers * keys.PerWorker, TimeSpan.FromMinutes(5), keys.PerWorker), keys, value, cancellationToken);

    /// <summary>Runs the cell.</summary>
    /// <param name="target">The target.</param>
    /// <param name="spec">The cell.</param>
    /// <param name="keys">The run's keys (for Get and Cas, written before).</param>
    /// <param name="value">The value to write; its length is <see cref="CellSpec.ValueBytes"/>.</param>
    /// <param name="cancellationToken">Cancels the cell.</param>
    /// <returns>The target's result in the cell.</returns>
    public static async Task<CellResult> RunAsync(IBenchTarget target, CellSpec spec, BenchKeys keys, ReadOnlyMemory<byte> value, CancellationToken cancellationToken)
    {
        if (value.Length != spec.ValueBytes)
        {
            throw new ArgumentException($"the value has {value.Length} bytes, the cell {spec.ValueBytes}", nameof(value));
        }

        var clients = new IBenchClient[spec.Concurrency];
        try
        {
            for (var w = 0; w < clients.Length; w++)
            {
                clients[w] = await target.ConnectAsync(w, cancellationToken).ConfigureAwait(false);
            }

            using var bound = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            bound.CancelAfter(spec.Duration + Grace);
            var started = new int[1];
            var cpuBefore = ServerCpu.Seconds(target.ServerProcessIds);
            var start = Stopwatch.GetTimestamp();
            var deadline = start + (long)(spec.Duration.TotalSeconds * Stopwatch.Frequency);
            var workers = new Task<WorkerTally>[clients.Length];
            for (var w = 0; w < workers.Length; w++)
            {
                var worker = w;
                workers[w] = Task.Run(() => WorkAsync(clients[worker], worker, spec, keys, value, started, deadline, bound.Token), CancellationToken.None);
            }

            var tallies = await Task.WhenAll(workers).ConfigureAwait(false);
            var seconds = Stopwatch.GetElapsedTime(start).TotalSeconds;
            var cpu = target.ServerProcessIds.Count > 0 ? ServerCpu.Seconds(target.ServerProcessIds) - cpuBefore : double.NaN;
            cancellationToken.ThrowIfCancellationRequested();
            var latencies = tallies.SelectMany(t => t.LatenciesMicroseconds).ToList();
            return new CellResult(target.Name, spec, latencies.Count, tallies.Sum(t => t.Errors), seconds, LatencySummary.Of(latencies),
                tallies.Select(t => t.FirstError).FirstOrDefault(e => e is not null), cpu);
        }
        finally
        {
            foreach (var client in clients)
            {
                if (client is not null)
                {
                    await client.DisposeAsync().ConfigureAwait(false);
                }
            }
        }
    }

    private static async Task<WorkerTally> WorkAsync(
        IBenchClient client, int worker, CellSpec spec, BenchKeys keys, ReadOnlyMemory<byte> value, int[] started, long deadline, CancellationToken cancellationToken)
    {
        var tally = new WorkerTally();
        for (var i = 0; i < spec.OperationsPerWorkerMax && tally.ConsecutiveErrors < WorkerTally.ConsecutiveErrorsMax; i++)
        {
            if (Interlocked.Increment(ref started[0]) > spec.OperationsMax || Stopwatch.GetTimestamp() >= deadline || cancellationToken.IsCancellationRequested)
            {
                break;
            }

            var key = keys.Key(spec.ValueBytes, worker, i);
            var begin = Stopwatch.GetTimestamp();
            try
            {
                var error = await OneAsync(client, spec.Operation, key, value, cancellationToken).ConfigureAwait(false);
                if (error is null)
                {
                    tally.Completed(Stopwatch.GetElapsedTime(begin).TotalMicroseconds);
                }
                else
                {
                    tally.Failed(error);
                }
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                tally.Failed($"{spec.Operation} {key}: no answer before the cell's time limit");
                break;
            }
#pragma warning disable CA1031 // a driver counts every failure of the store under load and goes on
            catch (Exception ex)
#pragma warning restore CA1031
            {
                tally.Failed($"{spec.Operation} {key}: {ex.GetType().Name}: {ex.Message}");
            }
        }

        return tally;
    }

    /// <summary>One operation; null when it completed as expected, else what was wrong.</summary>
    private static async Task<string?> OneAsync(IBenchClient client, BenchOperation operation, string key, ReadOnlyMemory<byte> value, CancellationToken cancellationToken)
    {
        switch (operation)
        {
            case BenchOperation.Put:
                await client.PutAsync(key, value, cancellationToken).ConfigureAwait(false);
                return null;
            case BenchOperation.Get:
                var (version, length) = await client.GetAsync(key, cancellationToken).ConfigureAwait(false);
                return version > 0 && length == value.Length ? null : $"get {key}: version {version}, {length} bytes (expected {value.Length})";
            default:
                var (read, _) = await client.GetAsync(key, cancellationToken).ConfigureAwait(false);
                if (read <= 0)
                {
                    return $"cas {key}: the key holds no value";
                }

                return await client.CompareAndSwapAsync(key, read, value, cancellationToken).ConfigureAwait(false)
                    ? null
                    : $"cas {key}: refused at version {read}, which no other worker changes";
        }
    }
}
