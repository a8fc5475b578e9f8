namespace CamCube.UdpDrivers;

/// <summary>Min, median, p99 and max of round-trip times in microseconds (nearest rank).</summary>
internal readonly record struct LatencySummary(int Count, double Min, double Median, double P99, double Max)
{
    public static LatencySummary Of(IReadOnlyCollection<double> microseconds)
    {
        if (microseconds.Count == 0)
        {
            return new LatencySummary(0, double.NaN, double.NaN, double.NaN, double.NaN);
        }

        var sorted = microseconds.Order().ToArray();
        return new LatencySummary(sorted.Length, sorted[0], Rank(sorted, 0.50), Rank(sorted, 0.99), sorted[^1]);
    }

    /// <summary>The <paramref name="fraction"/> percentile (nearest rank), or NaN for no values.</summary>
    public static double Percentile(IReadOnlyCollection<double> microseconds, double fraction) =>
        microseconds.Count == 0 ? double.NaN : Rank(microseconds.Order().ToArray(), fraction);

    /// <summary>The 10th to 90th percentiles, in steps of ten, as one line of text.</summary>
    public static string Deciles(IReadOnlyCollection<double> microseconds)
    {
        if (microseconds.Count == 0)
        {
            return "-";
        }

        var sorted = microseconds.Order().ToArray();
        return string.Join(' ', Enumerable.Range(1, 9).Select(d => Rank(sorted, d / 10.0).ToString("F0", System.Globalization.CultureInfo.InvariantCulture)));
    }

    private static double Rank(double[] sorted, double fraction) =>
        sorted[Math.Clamp((int)Math.Ceiling(fraction * sorted.Length) - 1, 0, sorted.Length - 1)];
}
