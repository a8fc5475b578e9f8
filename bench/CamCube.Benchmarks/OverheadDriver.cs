using System.Globalization;

namespace CamCube.Benchmarks;

/// <summary>
/// A noise-resistant companion to <see cref="ExtendedRoutingOverheadBenchmarks"/> for shared
/// machines: the same setup and the same two loops, run as alternating batches in one process, so
/// that load from the rest of the host falls on both; reports the minimum and the median time per
/// packet of each and their ratios. Run with <c>dotnet run -c Release -- overhead [batches]</c>.
/// </summary>
public static class OverheadDriver
{
    /// <summary>Runs <paramref name="batches"/> batches of each loop per |K| = 1..3 and prints a table.</summary>
    public static void Run(int batches)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(batches, 10);
        Console.WriteLine($"Extended routing overhead: {batches} alternating batches of {ExtendedRoutingOverheadBenchmarks.PacketCount} packets per loop, per |K|; ns per packet.");
        Console.WriteLine("| K | baseline min | extended min | ratio of min | baseline median | extended median | ratio of medians |");
        Console.WriteLine("|--:|-------------:|-------------:|-------------:|----------------:|----------------:|-----------------:|");
        for (var k = 1; k <= 3; k++)
        {
            var bench = new ExtendedRoutingOverheadBenchmarks { K = k };
            bench.Setup();
            var baseline = new double[batches];
            var extended = new double[batches];
            for (var i = 0; i < batches; i++)
            {
                // Alternate which loop goes first, so neither always follows the other's cache state.
                if (i % 2 == 0)
                {
                    baseline[i] = Time(bench.Baseline);
                    extended[i] = Time(bench.Extended);
                }
                else
                {
                    extended[i] = Time(bench.Extended);
                    baseline[i] = Time(bench.Baseline);
                }
            }

            Array.Sort(baseline);
            Array.Sort(extended);
            var (bMin, eMin) = (baseline[0], extended[0]);
            var (bMed, eMed) = (baseline[batches / 2], extended[batches / 2]);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"| {k} | {bMin:F1} | {eMin:F1} | {eMin / bMin:F2} | {bMed:F1} | {eMed:F1} | {eMed / bMed:F2} |"));
        }
    }

    private static double Time(Action batch)
    {
        var start = TimeProvider.System.GetTimestamp();
        batch();
        return TimeProvider.System.GetElapsedTime(start).TotalNanoseconds / ExtendedRoutingOverheadBenchmarks.PacketCount;
    }
}
