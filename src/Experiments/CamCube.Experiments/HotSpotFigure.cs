using System.Globalization;
using System.Text;

namespace CamCube.Experiments;

/// <summary>Draws the CDF of hops to a cache hit for both runs, as the paper's Fig. 3 does.</summary>
public static class HotSpotFigure
{
    private const int Width = 640, Height = 400, Left = 70, Right = 620, Top = 50, Bottom = 340;

    /// <summary>Draws the CDF of hops to a hit of both runs of <paramref name="r"/> as an SVG document.</summary>
    /// <param name="r">The experiment's result.</param>
    /// <returns>The SVG document's text.</returns>
    public static string Render(HotSpotResult r)
    {
        ArgumentNullException.ThrowIfNull(r);
        var hopsMax = Math.Max(Math.Max(r.Base.MaxHops, r.HotSpot.MaxHops), 1);
        var svg = new StringBuilder();
        var title = string.Create(CultureInfo.InvariantCulture, $"Hops to a cache hit, {r.Shape}, Zipf {r.ZipfExponent} (Fig. 3)");
        svg.Append(CultureInfo.InvariantCulture, $$"""
            <svg xmlns="http://www.w3.org/2000/svg" width="{{Width}}" height="{{Height}}" font-family="sans-serif" font-size="12">
            <rect width="{{Width}}" height="{{Height}}" fill="white"/>
            <text x="{{Width / 2}}" y="25" text-anchor="middle" font-size="15">{{title}}</text>
            <path d="M {{Left}} {{Top}} V {{Bottom}} H {{Right}}" fill="none" stroke="black"/>

            """);
        for (var tick = 0; tick <= 4; tick++)
        {
            var y = Bottom - ((Bottom - Top) * tick / 4.0);
            svg.AppendLine(CultureInfo.InvariantCulture, $"<text x=\"{Left - 8}\" y=\"{y + 4:0.0}\" text-anchor=\"end\">{tick / 4.0:0.00}</text>");
        }

        var step = hopsMax <= 40 ? 5 : 10;
        for (var h = 0; h <= hopsMax; h += step)
        {
            svg.AppendLine(CultureInfo.InvariantCulture, $"<text x=\"{X(h, hopsMax):0.0}\" y=\"{Bottom + 16}\" text-anchor=\"middle\">{h}</text>");
        }

        svg.AppendLine(CultureInfo.InvariantCulture, $"<text x=\"{(Left + Right) / 2}\" y=\"{Bottom + 36}\" text-anchor=\"middle\">hops to a cache hit</text>");
        svg.AppendLine(CultureInfo.InvariantCulture, $"<text x=\"15\" y=\"{(Top + Bottom) / 2}\" transform=\"rotate(-90 15 {(Top + Bottom) / 2})\" text-anchor=\"middle\">fraction of lookups (CDF)</text>");
        Curve(svg, r.Base, hopsMax, "#a84848", string.Create(CultureInfo.InvariantCulture, $"base routing: median {r.Base.MedianHops:0.#} (paper {r.PaperMedianHopsBase})"), 0);
        Curve(svg, r.HotSpot, hopsMax, "#4878a8", string.Create(CultureInfo.InvariantCulture, $"hot spot, k = {r.HotSpot.K}: median {r.HotSpot.MedianHops:0.#} (paper {r.PaperMedianHopsHotSpot})"), 1);
        svg.AppendLine("</svg>");
        return svg.ToString();
    }

    /// <summary>A step curve of the CDF and its legend line.</summary>
    private static void Curve(StringBuilder svg, HopStatistics run, int hopsMax, string color, string label, int legendRow)
    {
        var points = new StringBuilder();
        var previous = 0.0;
        for (var h = 0; h < run.HopsCdf.Count; h++)
        {
            points.Append(CultureInfo.InvariantCulture, $"{X(h, hopsMax):0.0},{Y(previous):0.0} {X(h, hopsMax):0.0},{Y(run.HopsCdf[h]):0.0} ");
            previous = run.HopsCdf[h];
        }

        points.Append(CultureInfo.InvariantCulture, $"{X(hopsMax, hopsMax):0.0},{Y(previous):0.0}");
        svg.AppendLine(CultureInfo.InvariantCulture, $"<polyline points=\"{points}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"2\"/>");
        var y = Bottom - 60 + (legendRow * 18);
        svg.AppendLine(CultureInfo.InvariantCulture, $"<line x1=\"{Right - 250}\" y1=\"{y - 4}\" x2=\"{Right - 230}\" y2=\"{y - 4}\" stroke=\"{color}\" stroke-width=\"2\"/>");
        svg.AppendLine(CultureInfo.InvariantCulture, $"<text x=\"{Right - 225}\" y=\"{y}\">{label}</text>");
    }

    private static double X(int hops, int hopsMax) => Left + ((Right - Left) * (double)hops / hopsMax);

    private static double Y(double fraction) => Bottom - ((Bottom - Top) * fraction);
}
