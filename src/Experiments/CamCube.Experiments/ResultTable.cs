using System.Globalization;
using System.Text;

namespace CamCube.Experiments;

/// <summary>The table `camcube sim` prints at the end of an experiment.</summary>
public static class ResultTable
{
    /// <summary>Renders <paramref name="result"/> as lines of <c>name  value</c>.</summary>
    /// <param name="result">An <see cref="AllToAllResult"/>, <see cref="FailuresResult"/> or <see cref="ChurnResult"/>; any other object is printed as its <see cref="object.ToString"/>.</param>
    /// <returns>The table's text, one line per measure.</returns>
    public static string Render(object result)
    {
        var t = new StringBuilder();
        switch (result)
        {
            case AllToAllResult r:
                t.AppendLine(Line("experiment", r.Experiment)).AppendLine(Line("shape", r.Shape)).AppendLine(Line("seed", r.Seed));
                t.AppendLine(Line("mean hops", r.MeanHops.ToString("0.00", CultureInfo.InvariantCulture)));
                t.AppendLine(Line("bound Gbps/server", F(r.BoundGbpsPerServer))).AppendLine(Line("expected Gbps/server", F(r.ExpectedGbpsPerServer)));
                t.AppendLine(Line("median Gbps/server", F(r.MedianGbpsPerServer))).AppendLine(Line("min/max Gbps/server", $"{F(r.MinGbpsPerServer)} / {F(r.MaxGbpsPerServer)}"));
                t.AppendLine(Line("packets offered/delivered/dropped", $"{r.PacketsOffered} / {r.PacketsDelivered} / {r.PacketsDropped}"));
                AppendRun(t, r.TraceHash, r.Events, r.WallSeconds);
                break;
            case FailuresResult r:
                t.AppendLine(Line("experiment", r.Experiment)).AppendLine(Line("shape", r.Shape)).AppendLine(Line("seed", r.Seed));
                t.AppendLine(CultureInfo.InvariantCulture, $"{"failed",8} {"expected",10} {"median",10} {"change",8}");
                for (var i = 0; i < r.FailedFractions.Count; i++)
                {
                    var change = r.MedianGbpsPerServer[0] > 0 ? (r.MedianGbpsPerServer[i] / r.MedianGbpsPerServer[0]) - 1 : 0;
                    t.AppendLine(CultureInfo.InvariantCulture, $"{r.FailedFractions[i],8:P0} {r.ExpectedGbpsPerServer[i],10:0.000} {r.MedianGbpsPerServer[i],10:0.000} {change,8:P1}");
                }

                AppendRun(t, r.TraceHash, r.Events, r.WallSeconds);
                break;
            case ChurnResult r:
                t.AppendLine(Line("experiment", r.Experiment)).AppendLine(Line("shape", r.Shape)).AppendLine(Line("seed", r.Seed));
                t.AppendLine(Line("churn rate /s", r.ChurnRatePerSecond)).AppendLine(Line("virtual duration s", r.DurationSeconds));
                t.AppendLine(Line("failures / joins", $"{r.Failures} / {r.Joins}")).AppendLine(Line("mean failed fraction", r.MeanFailedFraction.ToString("P1", CultureInfo.InvariantCulture)));
                t.AppendLine(Line("sent / delivered", $"{r.Sent} / {r.Delivered}")).AppendLine(Line("misdelivered", r.Misdelivered));
                t.AppendLine(Line("handed over in joins", r.DeliveredDuringJoin));
                t.AppendLine(Line("dropped", $"{r.Dropped} ({r.DroppedPercent.ToString("0.000", CultureInfo.InvariantCulture)}%)"));
                AppendRun(t, r.TraceHash, r.Events, r.WallSeconds);
                break;
            default:
                t.Append(result);
                break;
        }

        return t.ToString().TrimEnd();
    }

    private static void AppendRun(StringBuilder t, string traceHash, long events, double wallSeconds)
    {
        t.AppendLine(Line("trace hash", traceHash)).AppendLine(Line("events", events));
        t.AppendLine(Line("wall time s", wallSeconds.ToString("0.0", CultureInfo.InvariantCulture)));
    }

    private static string F(double gbps) => gbps.ToString("0.000", CultureInfo.InvariantCulture);

    private static string Line(string name, object? value) => string.Create(CultureInfo.InvariantCulture, $"{name,-36} {value}");
}
