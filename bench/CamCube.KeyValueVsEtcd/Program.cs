using System.Globalization;

namespace CamCube.KeyValueVsEtcd;

/// <summary>
/// The key-value store against etcd (issue 16, "Performance"): a 3-member etcd cluster on
/// loopback started and stopped here, CamCube's store through its memcached front-ends; put, get
/// and CAS at each value size and concurrency, throughput and p50/p99 latency per cell. Every
/// cell is bounded in operations and time, and the whole run in time.
/// </summary>
internal static class Program
{
    private const string Usage = """
        usage:
          run   [--targets etcd,store,inproc,inproc-best-effort,inproc-reliable] [--store-durability TEXT]
                (--cube-cli out/camcube.dll [--cube-shape 3x3x3] [--cube-port-base 25300] [--store-port-option --kv-port]
                 [--store-port-base 25500] [--cube-args "--no-memcached"] | --store-frontends 127.0.0.1:11311,...)
                [--sizes 128,4096] [--concurrency 1,16,64] [--ops 4000] [--seconds 8] [--keys-per-worker 16] [--warm-up-seconds 20]
                [--inproc-commit-threads 8]
                [--etcd etcd] [--etcd-port-base 23790] [--minutes-max 30]
          smoke [--etcd etcd] [--etcd-port-base 23790]   (etcd only, a few operations per cell; exit 0 when every one succeeded)
        """;

    private static async Task<int> Main(string[] args)
    {
        DriverOptions options;
        try
        {
            var arguments = DriverArguments.Parse(args.AsSpan(Math.Min(1, args.Length)));
            options = args.FirstOrDefault() switch
            {
                "run" => DriverOptions.Parse(arguments),
                "smoke" => DriverOptions.Smoke(arguments),
                _ => throw new FormatException(Usage),
            };
        }
        catch (FormatException ex)
        {
            await Console.Error.WriteLineAsync(ex.Message).ConfigureAwait(false);
            return 2;
        }

        using var stop = new CancellationTokenSource(options.RunDurationMax, TimeProvider.System);
        Console.CancelKeyPress += (_, e) =>
        {
            e.Cancel = true;
            stop.Cancel();
        };
        try
        {
            var failed = await RunAsync(options, Console.Out, Console.Error, stop.Token).ConfigureAwait(false);
            return args[0] == "smoke" && failed ? 1 : 0;
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            await Console.Error.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"stopped: cancelled or over --minutes-max ({options.RunDurationMax.TotalMinutes:F0} min)")).ConfigureAwait(false);
            return 1;
        }
        catch (InvalidOperationException ex)
        {
            await Console.Error.WriteLineAsync(ex.Message).ConfigureAwait(false);
            return 1;
        }
    }

    /// <summary>Runs the comparison; true when a cell had errors or completed nothing.</summary>
    private static async Task<bool> RunAsync(DriverOptions options, TextWriter output, TextWriter log, CancellationToken cancellationToken)
    {
        await output.WriteLineAsync(await MachineInfo.DescribeAsync().ConfigureAwait(false)).ConfigureAwait(false);
        await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
            $"settings: sizes {string.Join(',', options.ValueSizes)} B, concurrency {string.Join(',', options.Concurrencies)}, at most {options.OperationsMax} ops or {options.CellDuration.TotalSeconds:F0} s per cell, {options.KeysPerWorker} keys per worker, {options.WarmUp.TotalSeconds:F0} s of uncounted warm-up per target")).ConfigureAwait(false);
        EtcdCluster? cluster = null;
        StoreCube? cube = null;
        var inProcess = new List<InProcessStoreCube>();
        var targets = new List<IBenchTarget>();
        try
        {
            foreach (var name in options.Targets)
            {
                if (name == "etcd")
                {
                    cluster = await EtcdCluster.StartAsync(options.EtcdExecutable, options.EtcdPortBase, TimeSpan.FromSeconds(30), cancellationToken).ConfigureAwait(false);
                    await log.WriteLineAsync($"etcd: {EtcdCluster.MemberCount} members up at {string.Join(',', cluster.ClientUrls)} (data in {cluster.Directory})").ConfigureAwait(false);
                    targets.Add(new EtcdTarget(cluster.ClientUrls, cluster.ProcessIds));
                }
                else if (InProcessStoreCube.OptionsOf(name) is { } storeOptions)
                {
                    var started = await InProcessStoreCube.StartAsync(options.CubeShape, storeOptions, options.InProcessCommitThreads).ConfigureAwait(false);
                    inProcess.Add(started);
                    targets.Add(new KeyValueStoreTarget(name, started.Stores, InProcessStoreCube.Durability));
                }
                else if (options.CubeCli is { } cli)
                {
                    cube = await StoreCube.StartAsync(cli, options, cancellationToken).ConfigureAwait(false);
                    await log.WriteLineAsync($"store: a {options.CubeShape} cube up, front-ends {cube.FrontEnds[0]}..{cube.FrontEnds[^1]}").ConfigureAwait(false);
                    targets.Add(new MemcachedTarget(cube.FrontEnds, options.StoreDurability, cube.ProcessIds));
                }
                else
                {
                    targets.Add(new MemcachedTarget(options.StoreFrontEnds, options.StoreDurability, []));
                }
            }

            var results = await ComparisonRun.RunAsync(targets, options, log, cancellationToken).ConfigureAwait(false);
            foreach (var target in targets)
            {
                await output.WriteLineAsync($"durability, {target.Name}: {target.Durability}").ConfigureAwait(false);
            }

            var load = await File.ReadAllTextAsync("/proc/loadavg", cancellationToken).ConfigureAwait(false);
            await output.WriteLineAsync($"load at end: {load.Trim()}").ConfigureAwait(false);
            await output.WriteLineAsync(ResultTable.Format(results, options.Targets)).ConfigureAwait(false);
            return results.Any(r => r.Errors > 0 || r.Operations == 0);
        }
        finally
        {
            foreach (var target in targets)
            {
                await target.DisposeAsync().ConfigureAwait(false);
            }

            if (cluster is not null)
            {
                await cluster.DisposeAsync().ConfigureAwait(false);
            }

            if (cube is not null)
            {
                await cube.DisposeAsync().ConfigureAwait(false);
            }

            foreach (var started in inProcess)
            {
                await started.DisposeAsync().ConfigureAwait(false);
            }
        }
    }
}
