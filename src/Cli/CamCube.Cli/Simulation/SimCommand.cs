using System.Globalization;
using CamCube.Experiments;
using CamCube.Services.Cache;

namespace CamCube.Cli.Simulation;

/// <summary>`camcube sim`: the papers' scale, churn and cache hot-spot experiments in the packet-level simulator.</summary>
internal static class SimCommand
{
    /// <summary>The longest --duration accepted, in virtual time.</summary>
    public static readonly TimeSpan DurationMax = TimeSpan.FromHours(24);

    public const string Usage = """
        usage: camcube sim <all-to-all|failures|churn|hotspot> [--shape 8x8x8] [--seed N] [--duration 10s]
                           [--out results.json] [--svg figure.svg] [--churn-rate 2] [--failed-fraction 0.1]
                           [--items N] [--lookups N] [--k 8] [--in-flight 1000]

          all-to-all   every server sends to all others on shortest paths (camcubeos Fig. 5a)
          failures     all-to-all with 0..20% of servers failed at random (Fig. 5b)
          churn        key-routed traffic under continuous failures and recoveries, checked by an oracle (Fig. 5c)
          hotspot      hops to a cache hit, base routing vs k hot-spot replicas, Zipf 1.5 lookups
                       (symbiotic-routing Fig. 3); shape default 20x20x20, items default 1,000 per
                       server, lookups 100 per server, k 8, 1,000 lookups in flight

          --duration   measured virtual time: all-to-all and failures default 20ms, churn 10m (units ms, s, m)
          --out        write the result as JSON (fields experiment, shape, seed, traceHash, events, ...)
          --svg        draw the result as an SVG figure
        The same seed and options give the same result and trace hash on every run and machine.
        """;

    public static int Run(IReadOnlyList<string> args, CliConsole console)
    {
        var reader = new ArgumentReader("sim", args, ["--shape", "--seed", "--duration", "--out", "--svg", "--churn-rate", "--failed-fraction", "--items", "--lookups", "--k", "--in-flight"], []);
        if (reader.Positional.Count != 1)
        {
            throw new UsageException("sim: name one experiment: all-to-all, failures, churn or hotspot.");
        }

        var shape = ArgumentReader.ParseShape(reader.Single("--shape") ?? (reader.Positional[0] == HotSpotExperiment.Name ? "20x20x20" : "8x8x8"));
        if (shape.ServerCount > 8_000)
        {
            throw new UsageException($"sim: {shape} has {shape.ServerCount} servers; the simulator runs up to 8000 (20x20x20) here.");
        }

        var seed = reader.Int("--seed", 1, int.MinValue, int.MaxValue);
        var duration = reader.Single("--duration") is { } text ? ParseDuration(text) : (TimeSpan?)null;

        // The output files are opened before the run: an unwritable path is reported now, not after an hour's run.
        using var outFile = OpenOutput(reader.Single("--out"), "--out");
        using var svgFile = OpenOutput(reader.Single("--svg"), "--svg");
        using var progress = new ProgressBar(console.Error, enabled: !Console.IsErrorRedirected);
        object result;
        switch (reader.Positional[0])
        {
            case "all-to-all":
                {
                    var options = new AllToAllOptions { Shape = shape, Seed = seed };
                    result = AllToAllExperiment.Run(duration is { } d ? options with { Measurement = d } : options, progress);
                    break;
                }

            case "failures":
                {
                    var allToAll = new AllToAllOptions { Shape = shape, Seed = seed };
                    result = FailuresExperiment.Run(new FailuresOptions { Shape = shape, Seed = seed, AllToAll = duration is { } d ? allToAll with { Measurement = d } : allToAll }, progress);
                    break;
                }

            case "churn":
                {
                    var options = new ChurnOptions
                    {
                        Shape = shape,
                        Seed = seed,
                        ChurnRatePerSecond = Double(reader, "--churn-rate", 2, 0, 1_000),
                        FailedFraction = Double(reader, "--failed-fraction", 0.1, 0, 0.9),
                    };
                    result = ChurnExperiment.Run(duration is { } d ? options with { Duration = d } : options, progress);
                    break;
                }

            case HotSpotExperiment.Name:
                result = HotSpotExperiment.Run(
                    new HotSpotOptions
                    {
                        Shape = shape,
                        Seed = seed,
                        Items = reader.Int("--items", (int)Math.Min(int.MaxValue, HotSpotOptions.ItemsPerServerDefault * shape.ServerCount), 1, int.MaxValue),
                        Lookups = reader.Int("--lookups", (int)(HotSpotOptions.LookupsPerServerDefault * shape.ServerCount), 1, int.MaxValue),
                        K = reader.Int("--k", 8, 0, HotSpotReplicas.SecondaryCountMax),
                        LookupsInFlight = reader.Int("--in-flight", 1_000, 1, 1_000_000),
                    },
                    progress);
                break;

            default:
                throw new UsageException($"sim: unknown experiment '{reader.Positional[0]}'; use all-to-all, failures, churn or hotspot.");
        }

        progress.Dispose();
        console.Out.WriteLine(result is HotSpotResult hotSpot ? HotSpotTable.Render(hotSpot) : ResultTable.Render(result));
        if (outFile is not null)
        {
            outFile.Write(ExperimentJson.Serialize(result) + "\n");
            console.Out.WriteLine($"JSON written to {reader.Single("--out")}");
        }

        if (svgFile is not null)
        {
            svgFile.Write(result is HotSpotResult figure ? HotSpotFigure.Render(figure) : SvgFigure.Render(result));
            console.Out.WriteLine($"figure written to {reader.Single("--svg")}");
        }

        return CliApp.ExitOk;
    }

    internal static TimeSpan ParseDuration(string text)
    {
        var (number, unit) = text.EndsWith("ms", StringComparison.Ordinal) ? (text[..^2], 0.001)
            : text.EndsWith('s') ? (text[..^1], 1.0)
            : text.EndsWith('m') ? (text[..^1], 60.0)
            : (text, 1.0);
        if (!double.TryParse(number, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) || !(value > 0))
        {
            throw new UsageException($"--duration: '{text}' is not a positive duration such as 500ms, 10s or 2m.");
        }

        return value * unit <= DurationMax.TotalSeconds
            ? TimeSpan.FromSeconds(value * unit)
            : throw new UsageException($"--duration: '{text}' is longer than the simulator runs ({DurationMax.TotalHours:0} hours of virtual time).");
    }

    /// <summary>Opens an output file for writing (UTF-8, no byte order mark), or says in one line why it cannot be.</summary>
    private static StreamWriter? OpenOutput(string? path, string option)
    {
        if (path is null)
        {
            return null;
        }

        try
        {
            return new StreamWriter(path, append: false, new System.Text.UTF8Encoding(encoderShouldEmitUTF8Identifier: false));
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw new CommandFailedException($"{option}: cannot write '{path}': {CliApp.FirstLine(ex.Message)}");
        }
    }

    private static double Double(ArgumentReader reader, string option, double defaultValue, double min, double max)
    {
        var text = reader.Single(option);
        if (text is null)
        {
            return defaultValue;
        }

        return double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) && value >= min && value <= max
            ? value
            : throw new UsageException($"{option}: '{text}' is not a number from {min} to {max}.");
    }
}
