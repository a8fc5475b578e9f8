using System.Diagnostics;
using System.Globalization;
using System.Numerics;

namespace CamCube.Experiments;

/// <summary>
/// Hops to a cache hit (symbiotic-routing 3.3, Fig. 3): a cube populated with items, lookups
/// from servers picked uniformly at random for Zipf-distributed keys, once with base routing
/// (every lookup goes to the key's primary) and once with the hot-spot protocol (via the closest
/// of the primary and k secondary replicas, filled on demand). The paper, 8,000 servers,
/// 8,000,000 items, 800,000 lookups, Zipf 1.5, k = 8: a median of 15 hops with base routing and 7
/// with the hot-spot protocol.
/// </summary>
/// <remarks>
/// It lives with the experiments because it wires the cache service to the simulator, which know
/// nothing of each other (DESIGN.md 2). Both runs make the same lookups from the same seed.
/// </remarks>
public static class HotSpotExperiment
{
    /// <summary>The experiment's name on the command line and in results.</summary>
    public const string Name = "hotspot";

    /// <summary>Runs the experiment: base routing, then the hot-spot protocol.</summary>
    /// <param name="options">The settings.</param>
    /// <param name="progress">Told the fraction done, from 0 to 1; may be null.</param>
    /// <exception cref="ArgumentOutOfRangeException">A setting is out of range.</exception>
    public static HotSpotResult Run(HotSpotOptions options, IProgress<double>? progress = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        var startedAt = Stopwatch.GetTimestamp();
        var lookups = HotSpotLookups.Draw(options);
        var baseRun = HotSpotRun.Run(options, 0, lookups, progress is null ? null : new Progress(f => progress.Report(f / 2)));

        // The first cube (gigabytes at 8,000 servers and 8,000,000 items) is garbage now: free it
        // before the second is built, so that the second does not grow on top of it.
        GC.Collect();
        var hotSpotRun = HotSpotRun.Run(options, options.K, lookups, progress is null ? null : new Progress(f => progress.Report(0.5 + (f / 2))));
        return new HotSpotResult
        {
            Shape = options.Shape.ToString(),
            Seed = options.Seed,
            TraceHash = Combine(baseRun.TraceHash, hotSpotRun.TraceHash),
            Events = baseRun.Events + hotSpotRun.Events,
            Items = options.Items,
            Lookups = options.Lookups,
            ZipfExponent = options.ZipfExponent,
            LookupsInFlight = options.LookupsInFlight,
            Base = baseRun,
            HotSpot = hotSpotRun,
            WallSeconds = Stopwatch.GetElapsedTime(startedAt).TotalSeconds,
            PeakWorkingSetBytes = PeakWorkingSetBytes(),
        };
    }

    /// <summary>Mixes two 16-digit trace hashes, in order, into one.</summary>
    private static string Combine(string first, string second)
    {
        var a = ulong.Parse(first, NumberStyles.HexNumber, CultureInfo.InvariantCulture);
        var b = ulong.Parse(second, NumberStyles.HexNumber, CultureInfo.InvariantCulture);
        return ((BitOperations.RotateLeft(a, 17) * 0x9E3779B97F4A7C15UL) ^ b).ToString("x16", CultureInfo.InvariantCulture);
    }

    private static long PeakWorkingSetBytes()
    {
        using var process = Process.GetCurrentProcess();
        return process.PeakWorkingSet64;
    }

    /// <summary>Reports to a callback: <see cref="System.Progress{T}"/> would post to the thread pool.</summary>
    private sealed class Progress(Action<double> report) : IProgress<double>
    {
        public void Report(double value) => report(value);
    }
}
