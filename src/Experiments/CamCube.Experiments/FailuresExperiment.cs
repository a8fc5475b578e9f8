using System.Globalization;
using CamCube.Transport.Simulation;

namespace CamCube.Experiments;

/// <summary>
/// Server failure sensitivity (camcubeos 4.2.4, Fig. 5b): the all-to-all experiment on 512 servers
/// with up to 20% of them failed at random. The paper: the median throughput per server falls about
/// linearly, by 38.77% at 20%.
/// </summary>
/// <remarks>
/// The failed sets are nested (the servers failed at 10% include those failed at 5%), drawn from
/// the seed. Each run generates at the expected rate for its own failures, as the paper's
/// all-to-all does for its size.
/// </remarks>
public static class FailuresExperiment
{
    /// <summary>The experiment's name on the command line and in results.</summary>
    public const string Name = "failures";

    /// <summary>Runs the experiment: one all-to-all run per failed fraction.</summary>
    /// <param name="options">The settings.</param>
    /// <param name="progress">Told the fraction done, from 0 to 1; may be null.</param>
    public static FailuresResult Run(FailuresOptions options, IProgress<double>? progress = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        var shape = options.Shape;
        var order = new int[shape.ServerCount];
        for (var i = 0; i < order.Length; i++)
        {
            order[i] = i;
        }

        new Random(options.Seed).Shuffle(order);
        var runs = new List<AllToAllResult>();
        var fractions = options.FailedFractions;
        var wallSeconds = 0.0;
        var trace = new TraceHash();
        for (var r = 0; r < fractions.Count; r++)
        {
            var failed = new Coordinate[(int)Math.Round(fractions[r] * order.Length)];
            for (var i = 0; i < failed.Length; i++)
            {
                failed[i] = shape.CoordinateAt(order[i]);
            }

            var run = r;
            var result = AllToAllExperiment.Run(
                options.AllToAll with { Shape = shape, Seed = options.Seed, FailedServers = failed },
                progress is null ? null : new Progress(fraction => progress.Report((run + fraction) / fractions.Count)));
            runs.Add(result);
            wallSeconds += result.WallSeconds;
            trace.Add(ulong.Parse(result.TraceHash, NumberStyles.HexNumber, CultureInfo.InvariantCulture));
        }

        var medians = new double[runs.Count];
        var drops = new double[runs.Count];
        var expected = new double[runs.Count];
        long events = 0;
        for (var r = 0; r < runs.Count; r++)
        {
            medians[r] = runs[r].MedianGbpsPerServer;
            expected[r] = runs[r].ExpectedGbpsPerServer;
            drops[r] = 100 * (1 - (medians[r] / runs[0].MedianGbpsPerServer));
            events += runs[r].Events;
        }

        return new FailuresResult
        {
            Shape = shape.ToString(),
            Seed = options.Seed,
            TraceHash = trace.Value.ToString("x16", CultureInfo.InvariantCulture),
            Events = events,
            FailedFractions = [.. fractions],
            ExpectedGbpsPerServer = expected,
            MedianGbpsPerServer = medians,
            MedianDropPercent = drops,
            Runs = runs,
            WallSeconds = wallSeconds,
        };
    }

    /// <summary>Reports synchronously on the caller's thread (the engine's), unlike <see cref="Progress{T}"/>.</summary>
    private sealed class Progress(Action<double> report) : IProgress<double>
    {
        public void Report(double value) => report(value);
    }
}
