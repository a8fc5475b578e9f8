using System.Globalization;
using System.Text;

namespace CamCube.Experiments;

/// <summary>Draws a result as a small SVG bar chart comparable to the papers' figures.</summary>
public static class SvgFigure
{
    /// <summary>Draws <paramref name="result"/> as an SVG document.</summary>
    /// <param name="result">An <see cref="AllToAllResult"/>, <see cref="FailuresResult"/> or <see cref="ChurnResult"/>.</param>
    /// <returns>The SVG document's text.</returns>
    /// <exception cref="ArgumentException">The result is of another type.</exception>
    public static string Render(object result) => result switch
    {
        AllToAllResult r => Bars($"All-to-all, {r.Shape} (Fig. 5a)", "Gbps per server",
            [("bound", r.BoundGbpsPerServer), ("expected", r.ExpectedGbpsPerServer), ("median", r.MedianGbpsPerServer)]),
        FailuresResult r => Bars($"Failures, {r.Shape} (Fig. 5b)", "median Gbps per server",
            r.FailedFractions.Select((f, i) => (f.ToString("P0", CultureInfo.InvariantCulture) + " failed", r.MedianGbpsPerServer[i])).ToArray()),
        ChurnResult r => Bars($"Churn, {r.Shape}, {r.ChurnRatePerSecond} failures/s (Fig. 5c)", "packets",
            [("sent", r.Sent), ("delivered", r.Delivered), ("dropped", r.Dropped), ("misdelivered", r.Misdelivered), ("joins' hand-overs", r.DeliveredDuringJoin)]),
        _ => throw new ArgumentException($"No figure for {result.GetType().Name}.", nameof(result)),
    };

    private static string Bars(string title, string axis, (string Label, double Value)[] bars)
    {
        const int Width = 640, Height = 360, Left = 70, Bottom = 300, Top = 50;
        var max = Math.Max(bars.Max(b => b.Value), 1e-9);
        var step = (Width - Left - 20) / bars.Length;
        var svg = new StringBuilder();
        svg.AppendLine(CultureInfo.InvariantCulture, $"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{Width}\" height=\"{Height}\" font-family=\"sans-serif\" font-size=\"12\">");
        svg.AppendLine(CultureInfo.InvariantCulture, $"<rect width=\"{Width}\" height=\"{Height}\" fill=\"white\"/>");
        svg.AppendLine(CultureInfo.InvariantCulture, $"<text x=\"{Width / 2}\" y=\"25\" text-anchor=\"middle\" font-size=\"15\">{Escape(title)}</text>");
        svg.AppendLine(CultureInfo.InvariantCulture, $"<text x=\"15\" y=\"{(Top + Bottom) / 2}\" transform=\"rotate(-90 15 {(Top + Bottom) / 2})\" text-anchor=\"middle\">{Escape(axis)}</text>");
        svg.AppendLine(CultureInfo.InvariantCulture, $"<line x1=\"{Left}\" y1=\"{Bottom}\" x2=\"{Width - 10}\" y2=\"{Bottom}\" stroke=\"black\"/>");
        for (var i = 0; i < bars.Length; i++)
        {
            var h = (Bottom - Top) * bars[i].Value / max;
            var x = Left + (i * step) + (step / 6);
            svg.AppendLine(CultureInfo.InvariantCulture, $"<rect x=\"{x}\" y=\"{Bottom - h:0.0}\" width=\"{step * 2 / 3}\" height=\"{h:0.0}\" fill=\"#4878a8\"/>");
            svg.AppendLine(CultureInfo.InvariantCulture, $"<text x=\"{x + (step / 3)}\" y=\"{Bottom - h - 5:0.0}\" text-anchor=\"middle\">{bars[i].Value:0.###}</text>");
            svg.AppendLine(CultureInfo.InvariantCulture, $"<text x=\"{x + (step / 3)}\" y=\"{Bottom + 18}\" text-anchor=\"middle\">{Escape(bars[i].Label)}</text>");
        }

        svg.AppendLine("</svg>");
        return svg.ToString();
    }

    private static string Escape(string text) => text.Replace("&", "&amp;", StringComparison.Ordinal).Replace("<", "&lt;", StringComparison.Ordinal);
}
