using CamCube.Runtime;
using CamCube.Testing;

namespace CamCube.Experiments;

/// <summary>
/// All-to-all scaling (camcubeos 4.2.3, Fig. 5a): every live server sends to every other one, on
/// shortest paths, at the expected rate (the capacity bound), and the throughput delivered to each
/// server is measured. The paper: 2.7 Gbps per server at 27 servers, 1 Gbps at 512, 0.5 at 4,096.
/// </summary>
/// <remarks>
/// Copy this class to write an experiment of your own: build a <see cref="SimulatedCube"/> with a
/// service on every node, start it, drive the engine and read the counters.
/// </remarks>
public static class AllToAllExperiment
{
    /// <summary>The experiment's name on the command line and in results.</summary>
    public const string Name = "all-to-all";

    /// <summary>Runs the experiment.</summary>
    /// <param name="options">The settings.</param>
    /// <param name="progress">Told the fraction of virtual time done, from 0 to 1; may be null.</param>
    public static AllToAllResult Run(AllToAllOptions options, IProgress<double>? progress = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        var shape = options.Shape;
        if (options.FrameBytes > options.Network.MtuBytes || options.FrameBytes <= Packets.PacketHeader.SizeBytes)
        {
            throw new ArgumentOutOfRangeException(nameof(options), options.FrameBytes, $"The frame size must be above the header and at most the MTU, {options.Network.MtuBytes} bytes.");
        }

        var alive = ReachabilityView.WithUnreachable(shape, options.FailedServers);
        var paths = TorusPaths.Measure(shape, alive);
        var boundBitsPerSecond = paths.AllToAllBoundBitsPerSecond(options.Network.BandwidthBitsPerSecond);
        var efficiency = (double)options.FrameBytes / (options.FrameBytes + options.Network.FrameOverheadBytes);
        var expectedBitsPerSecond = boundBitsPerSecond * efficiency * options.Load;

        var servers = new List<Coordinate>();
        for (long i = 0; i < shape.ServerCount; i++)
        {
            if (alive.IsReachable(shape.CoordinateAt(i)))
            {
                servers.Add(shape.CoordinateAt(i));
            }
        }

        var meter = new ThroughputMeter((int)shape.ServerCount);
        var plan = new AllToAllPlan(shape, servers, expectedBitsPerSecond / (options.FrameBytes * 8.0), options.FrameBytes - Packets.PacketHeader.SizeBytes, meter);
        SimulatedCube? cube = null;
        cube = new SimulatedCube(
            shape,
            node => node.Register(new AllToAllTrafficService(plan, cube!.Engine.CreateRandom((int)shape.IndexOf(node.Self)))),
            new SimulatedCubeOptions
            {
                Seed = options.Seed,
                Network = options.Network,
                NodeOptions = () => new NodeOptions { PublishMetrics = false, Seed = options.Seed, SendQueuePacketsMax = options.SendQueuePacketsMax },
            });
        var clock = new ExperimentClock(cube.Engine, progress);
        foreach (var failed in options.FailedServers)
        {
            cube.Kill(failed);
        }

        cube.StartAll();
        foreach (var server in servers)
        {
            cube[server].GetService<AllToAllTrafficService>()!.Begin();
        }

        var start = cube.Engine.Elapsed;
        clock.RunTo(start + options.WarmUp, 0, 0.2);
        meter.IsMeasuring = true;
        clock.RunTo(start + options.WarmUp + options.Measurement, 0.2, 1);
        meter.IsMeasuring = false;

        var gbps = new double[servers.Count];
        long dropped = 0;
        for (var i = 0; i < servers.Count; i++)
        {
            gbps[i] = meter.BytesDeliveredTo((int)shape.IndexOf(servers[i])) * 8 / options.Measurement.TotalSeconds / 1e9;
            dropped += cube[servers[i]].Counters.DroppedTotal;
        }

        Array.Sort(gbps);
        return new AllToAllResult
        {
            Shape = shape.ToString(),
            Seed = options.Seed,
            TraceHash = cube.Engine.TraceHashHex,
            Events = cube.Engine.EventCount,
            Servers = servers.Count,
            MeanHops = paths.MeanHops,
            BoundGbpsPerServer = boundBitsPerSecond / 1e9,
            ExpectedGbpsPerServer = expectedBitsPerSecond / 1e9,
            MedianGbpsPerServer = Median(gbps),
            MinGbpsPerServer = gbps[0],
            MaxGbpsPerServer = gbps[^1],
            PacketsOffered = meter.PacketsOffered,
            PacketsDelivered = meter.PacketsDelivered,
            PacketsDropped = dropped,
            FrameHops = cube.Network.FramesDelivered,
            VirtualSeconds = cube.Engine.Elapsed.TotalSeconds,
            WallSeconds = clock.WallSeconds,
            PeakWorkingSetBytes = ExperimentClock.PeakWorkingSetBytes,
        };
    }

    /// <summary>Gets the median of sorted values.</summary>
    internal static double Median(double[] sorted) =>
        sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
}
