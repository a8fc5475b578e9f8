using System.Globalization;
using System.Text.Json;

namespace CamCube.Cli.Cube;

/// <content>Fault drills on the running cube: random faults per node, and cut links (a partition is a set of cuts).</content>
internal static partial class CubeCommand
{
    private static int Faults(string[] args, CliConsole console)
    {
        var reader = new ArgumentReader("cube faults", args, ["--drop", "--delay-ms", "--duplicate", "--reorder", "--state-dir"], []);
        if (reader.Positional.Count != 1)
        {
            throw new UsageException("cube faults: give a node coordinate, such as 1,1,1, or 'all'.");
        }

        var request = "faults";
        foreach (var (option, name) in new[] { ("--drop", "drop"), ("--delay-ms", "delay-ms"), ("--duplicate", "duplicate"), ("--reorder", "reorder") })
        {
            if (reader.Single(option) is { } value)
            {
                if (!double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var number) || number < 0)
                {
                    throw new UsageException($"cube faults {option}: '{value}' is not a non-negative number.");
                }

                request += string.Create(CultureInfo.InvariantCulture, $" {name}={number}");
            }
        }

        var layout = CubeLayout.Default(reader.Single("--state-dir"));
        var targets = Targets(layout, reader.Positional[0], "cube faults");
        foreach (var target in targets)
        {
            if (!AskNode(layout, target, request, console, "cube faults"))
            {
                return CliApp.ExitFailure;
            }
        }

        console.Out.WriteLine($"faults set on {(targets.Length == 1 ? "node " + targets[0] : targets.Length + " nodes")}: {(request == "faults" ? "none" : request[7..])}");
        return CliApp.ExitOk;
    }

    private static int Cut(string[] args, CliConsole console, string verb)
    {
        var reader = new ArgumentReader("cube " + verb, args, ["--state-dir"], []);
        if (reader.Positional.Count != 2)
        {
            throw new UsageException($"cube {verb}: give a node coordinate and a link, such as 1,1,1 +x.");
        }

        var layout = CubeLayout.Default(reader.Single("--state-dir"));
        var target = Targets(layout, reader.Positional[0], "cube " + verb).Single();
        if (!AskNode(layout, target, $"{verb} {reader.Positional[1]}", console, "cube " + verb))
        {
            return CliApp.ExitFailure;
        }

        console.Out.WriteLine($"{(verb == "cut" ? "cut" : "restored")} link {reader.Positional[1]} of node {target}");
        return CliApp.ExitOk;
    }

    private static Coordinate[] Targets(CubeLayout layout, string text, string command)
    {
        using var state = RequireCube(layout);
        var shape = TorusShape.Parse(state.RootElement.GetProperty("shape").GetString()!);
        return text == "all"
            ? Enumerable.Range(0, (int)shape.ServerCount).Select(i => shape.CoordinateAt(i)).ToArray()
            : [ArgumentReader.ParseCoordinate(command, text, shape)];
    }

    private static bool AskNode(CubeLayout layout, Coordinate target, string request, CliConsole console, string command)
    {
        using var answer = ControlClient.TryAskAsync(layout.NodeSocket(target), request, TimeSpan.FromSeconds(10)).GetAwaiter().GetResult();
        if (answer is null)
        {
            console.Error.WriteLine($"camcube {command}: node {target} does not answer; is it killed? ('camcube cube status')");
            return false;
        }

        if (answer.RootElement.TryGetProperty("error", out JsonElement error))
        {
            console.Error.WriteLine($"camcube {command}: node {target}: {error.GetString()}");
            return false;
        }

        return true;
    }
}
