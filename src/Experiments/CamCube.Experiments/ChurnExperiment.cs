using CamCube.Runtime;
using CamCube.Testing;

namespace CamCube.Experiments;

/// <summary>
/// Keyspace consistency under churn (camcubeos 4.2.5, Fig. 5c): 512 servers, a tenth of them failed
/// at any time; failures come as a Poisson process at half the churn rate, and each failed server
/// rejoins (with a fresh node) after a fixed failure duration chosen so that the target fraction
/// is failed on average. Every live server routes packets to random keys; the oracle checks each
/// delivery against the key's true root. The paper: no misdelivered packet; drops below 1% at
/// 2 failures per second.
/// </summary>
public static class ChurnExperiment
{
    /// <summary>The experiment's name on the command line and in results.</summary>
    public const string Name = "churn";

    private const int StreamBase = 1_000_000;

    /// <summary>Runs the experiment.</summary>
    /// <param name="options">The settings.</param>
    /// <param name="progress">Told the fraction of virtual time done, from 0 to 1; may be null.</param>
    public static ChurnResult Run(ChurnOptions options, IProgress<double>? progress = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(options.ChurnRatePerSecond);
        var shape = options.Shape;
        DeliveryOracle? oracle = null;
        SimulatedCube? cube = null;

        // Every node, restarted ones too, gets its own random stream, in the order nodes are made.
        var streams = 0;
        cube = new SimulatedCube(
            shape,
            node => node.Register(new KeyTrafficService(oracle!, cube!.Engine.CreateRandom(StreamBase + streams++), options.PacketsPerSecondPerServer, options.PayloadBytes)),
            new SimulatedCubeOptions
            {
                Seed = options.Seed,
                Network = options.Network,
                ShareRoutingComputations = options.ShareRoutingComputations,
                NodeOptions = () => new NodeOptions { PublishMetrics = false, Seed = options.Seed },
            });
        oracle = new DeliveryOracle(cube);
        oracle.MisdeliveryObserved = options.MisdeliveryObserved;

        var clock = new ExperimentClock(cube.Engine, progress);
        var churn = new ChurnProcess(cube, oracle, options);
        churn.FailInitially();
        cube.StartAll();
        for (long i = 0; i < shape.ServerCount; i++)
        {
            var server = shape.CoordinateAt(i);
            if (cube.IsAlive(server))
            {
                cube[server].GetService<KeyTrafficService>()!.Begin();
            }
        }

        var start = cube.Engine.Elapsed;
        churn.Begin(start + options.Duration);
        clock.RunTo(start + options.Duration, 0, 0.99);
        oracle.IsCountingSends = false;
        churn.End();
        clock.RunTo(start + options.Duration + options.Drain, 0.99, 1);

        return new ChurnResult
        {
            Shape = shape.ToString(),
            Seed = options.Seed,
            TraceHash = cube.Engine.TraceHashHex,
            Events = cube.Engine.EventCount,
            ChurnRatePerSecond = options.ChurnRatePerSecond,
            FailureDurationSeconds = churn.FailureDuration.TotalSeconds,
            DurationSeconds = options.Duration.TotalSeconds,
            Failures = churn.Failures,
            Joins = churn.Joins,
            MeanFailedFraction = churn.MeanFailedFraction,
            Sent = oracle.Sent,
            Delivered = oracle.Delivered,
            Misdelivered = oracle.Misdelivered,
            DeliveredDuringJoin = oracle.DeliveredDuringJoin,
            Dropped = oracle.Sent - oracle.Delivered,
            DroppedPercent = oracle.Sent == 0 ? 0 : 100.0 * (oracle.Sent - oracle.Delivered) / oracle.Sent,
            WallSeconds = clock.WallSeconds,
            PeakWorkingSetBytes = ExperimentClock.PeakWorkingSetBytes,
        };
    }
}
