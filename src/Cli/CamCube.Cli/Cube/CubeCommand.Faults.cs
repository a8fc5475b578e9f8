using System.Globalization;
using CamCube.Hosting.Control;


namespace CamCube.Cli.Cube;

/// <content>Fault drills on the running cube: random faults per node, and cut links (a partition is a set of cuts).</content>
internal static partial class CubeCommand
{
    /// <summary>The longest delay `cube faults --delay-ms` accepts, in milliseconds.</summary>
    public const double FaultDelayMillisecondsMax = Hosting.Control.ControlCommandLimits.FaultDelayMillisecondsMax;

    private static readonly string[] s_linkNames = ["+x", "-x", "+y", "-y", "+z", "-z"];

    private static int Faults(string[] args, CliConsole console)
    {
        var reader = new ArgumentReader("cube faults", args, ["--drop", "--delay-ms", "--duplicate", "--reorder", "--state-dir"], []);
        if (reader.Positional.Count != 1)
        {
            throw new UsageException("cube faults: give a node coordinate, such as 1,1,1, or 'all'.");
        }

        var request = "faults";
        foreach (var (option, name, max) in new[] { ("--drop", "drop", 1.0), ("--delay-ms", "delay-ms", FaultDelayMillisecondsMax), ("--duplicate", "duplicate", 1.0), ("--reorder", "reorder", 1.0) })
        {
            if (reader.Single(option) is { } value)
            {
                if (!double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var number) || !(number >= 0 && number <= max))
                {
                    throw new UsageException($"cube faults {option}: '{value}' is not a number from 0 to {max.ToString(CultureInfo.InvariantCulture)}.");
                }

                request += string.Create(CultureInfo.InvariantCulture, $" {name}={number}");
            }
        }

        var layout = CubeLayout.Default(reader.Single("--state-dir"));
        var targets = Targets(layout, reader.Positional[0], "cube faults");
        var done = AskEachNode(layout, targets, request, console, "cube faults");
        if (done > 0)
        {
            console.Out.WriteLine($"faults set on {Described(targets, done)}: {(request == "faults" ? "none" : request[7..])}");
        }

        return done == targets.Length ? CliApp.ExitOk : CliApp.ExitFailure;
    }

    private static int Cut(string[] args, CliConsole console, string verb)
    {
        // A link name such as -x is a value here, not an option: it needs no '--' before it.
        var options = args.Where(a => !s_linkNames.Contains(a)).ToList();
        options.Add("--");
        options.AddRange(args.Where(s_linkNames.Contains));
        var reader = new ArgumentReader("cube " + verb, options, ["--state-dir"], []);
        if (reader.Positional.Count != 2)
        {
            throw new UsageException($"cube {verb}: give a node coordinate (or 'all') and a link, such as 1,1,1 +x.");
        }

        var (node, link) = s_linkNames.Contains(reader.Positional[0]) ? (reader.Positional[1], reader.Positional[0]) : (reader.Positional[0], reader.Positional[1]);
        if (!s_linkNames.Contains(link))
        {
            throw new UsageException($"cube {verb}: '{link}' is not a link; use +x, -x, +y, -y, +z or -z.");
        }

        var layout = CubeLayout.Default(reader.Single("--state-dir"));
        var targets = Targets(layout, node, "cube " + verb);
        var done = AskEachNode(layout, targets, $"{verb} {link}", console, "cube " + verb);
        if (done > 0)
        {
            console.Out.WriteLine($"{(verb == "cut" ? "cut" : "restored")} link {link} of {Described(targets, done)}");
        }

        return done == targets.Length ? CliApp.ExitOk : CliApp.ExitFailure;
    }

    /// <summary>
    /// Asks every target, also after one fails (a drill on 'all' with a killed node still reaches
    /// the live ones; each failure is its own line on standard error). Returns how many answered yes.
    /// </summary>
    private static int AskEachNode(CubeLayout layout, Coordinate[] targets, string request, CliConsole console, string command) =>
        targets.Count(target => AskNode(layout, target, request, console, command));

    private static string Described(Coordinate[] targets, int done) =>
        targets.Length == 1 ? "node " + targets[0] : done == targets.Length ? targets.Length + " nodes" : $"{done} of {targets.Length} nodes";

    private static Coordinate[] Targets(CubeLayout layout, string text, string command)
    {
        var shape = TorusShape.Parse(RequireCube(layout).Shape);
        return text == "all"
            ? Enumerable.Range(0, (int)shape.ServerCount).Select(i => shape.CoordinateAt(i)).ToArray()
            : [ArgumentReader.ParseCoordinate(command, text, shape)];
    }

    private static bool AskNode(CubeLayout layout, Coordinate target, string request, CliConsole console, string command)
    {
        var answer = ControlClient.TryAskAsync(layout.NodeSocket(target), request, ControlJsonContext.Default.ControlResponse, TimeSpan.FromSeconds(10)).GetAwaiter().GetResult();
        if (answer is null)
        {
            console.Error.WriteLine($"camcube {command}: node {target} does not answer; is it killed? ('camcube cube status')");
            return false;
        }

        if (answer.Error is { } error)
        {
            console.Error.WriteLine($"camcube {command}: node {target}: {error}");
            return false;
        }

        return true;
    }
}
