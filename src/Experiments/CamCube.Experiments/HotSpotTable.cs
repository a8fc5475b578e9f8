using System.Globalization;
using System.Text;

namespace CamCube.Experiments;

/// <summary>The table `camcube sim hotspot` prints: both runs side by side, beside the paper's medians.</summary>
public static class HotSpotTable
{
    /// <summary>Renders both runs of <paramref name="r"/> side by side, with the paper's medians.</summary>
    /// <param name="r">The experiment's result.</param>
    /// <returns>The table's text.</returns>
    public static string Render(HotSpotResult r)
    {
        ArgumentNullException.ThrowIfNull(r);
        var t = new StringBuilder();
        t.AppendLine(Row("experiment", r.Experiment)).AppendLine(Row("shape", r.Shape)).AppendLine(Row("seed", r.Seed));
        t.AppendLine(Row("items / lookups", $"{r.Items} / {r.Lookups}")).AppendLine(Row("zipf exponent / in flight", $"{r.ZipfExponent} / {r.LookupsInFlight}"));
        t.AppendLine(CultureInfo.InvariantCulture, $"{"hops to a hit",-28} {"base (k 0)",14} {$"hot spot (k {r.HotSpot.K})",14}");
        t.AppendLine(Pair("median", r.Base.MedianHops, r.HotSpot.MedianHops, "0.0"));
        t.AppendLine(Pair("mean", r.Base.MeanHops, r.HotSpot.MeanHops, "0.00"));
        t.AppendLine(Pair("p90", r.Base.P90Hops, r.HotSpot.P90Hops, "0"));
        t.AppendLine(Pair("max", r.Base.MaxHops, r.HotSpot.MaxHops, "0"));
        t.AppendLine(Pair("paper median", r.PaperMedianHopsBase, r.PaperMedianHopsHotSpot, "0"));
        t.AppendLine(Pair("hits", r.Base.Hits, r.HotSpot.Hits, "0"));
        t.AppendLine(Pair("not hits", r.Base.NotHits, r.HotSpot.NotHits, "0"));
        t.AppendLine(Pair("hits from a secondary's copy", r.Base.SecondaryHits, r.HotSpot.SecondaryHits, "0"));
        t.AppendLine(Pair("wall s: start cube", r.Base.StartWallSeconds, r.HotSpot.StartWallSeconds, "0.0"));
        t.AppendLine(Pair("wall s: load items", r.Base.LoadWallSeconds, r.HotSpot.LoadWallSeconds, "0.0"));
        t.AppendLine(Pair("wall s: lookups", r.Base.LookupWallSeconds, r.HotSpot.LookupWallSeconds, "0.0"));
        t.AppendLine(Row("trace hash", r.TraceHash)).AppendLine(Row("events", r.Events));
        t.AppendLine(Row("wall time s", r.WallSeconds.ToString("0.0", CultureInfo.InvariantCulture)));
        t.AppendLine(Row("peak working set MB", (r.PeakWorkingSetBytes / 1_000_000).ToString(CultureInfo.InvariantCulture)));
        return t.ToString().TrimEnd();
    }

    private static string Pair(string name, double first, double second, string format) =>
        string.Create(CultureInfo.InvariantCulture, $"{name,-28} {first.ToString(format, CultureInfo.InvariantCulture),14} {second.ToString(format, CultureInfo.InvariantCulture),14}");

    private static string Row(string name, object? value) => string.Create(CultureInfo.InvariantCulture, $"{name,-28} {value}");
}
