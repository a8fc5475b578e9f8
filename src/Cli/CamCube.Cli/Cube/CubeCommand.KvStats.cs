using System.Globalization;
using CamCube.Hosting.Control;

namespace CamCube.Cli.Cube;

/// <content>`cube kv-stats [x,y,z]`: what the key-value store on one node, or on every node, did.</content>
internal static partial class CubeCommand
{
    private static readonly TimeSpan s_kvStatsTimeout = TimeSpan.FromSeconds(5);

    /// <summary>
    /// One node: its <c>kv-stats</c> line. No node: a line per running node, then each counter summed
    /// over them (a node that does not answer is named, and the exit code is 1).
    /// </summary>
    private static int KvStats(string[] args, CliConsole console)
    {
        var reader = new ArgumentReader("cube kv-stats", args, ["--state-dir"], []);
        if (reader.Positional.Count > 1)
        {
            throw new UsageException("cube kv-stats: give at most one node coordinate, such as 1,1,1 (none: every node).");
        }

        var layout = CubeLayout.Default(reader.Single("--state-dir"));
        var shape = TorusShape.Parse(RequireCube(layout).Shape);
        var nodes = reader.Positional.Count == 1
            ? [ArgumentReader.ParseCoordinate("cube kv-stats", reader.Positional[0], shape)]
            : Enumerable.Range(0, (int)shape.ServerCount).Select(i => shape.CoordinateAt(i)).ToArray();
        var totals = new List<(string Name, long Value)>();
        var silent = 0;
        foreach (var node in nodes)
        {
            var answer = ControlClient.TryAskAsync(layout.NodeSocket(node), Nodes.KeyValueStatsCommand.Name, ControlJsonContext.Default.CommandResult, s_kvStatsTimeout).GetAwaiter().GetResult();
            var name = string.Create(CultureInfo.InvariantCulture, $"{node.X},{node.Y},{node.Z}");
            if (answer is null || answer.Error is not null)
            {
                silent++;
                console.Out.WriteLine($"{name}: {answer?.Error ?? "no answer (not running?)"}");
                continue;
            }

            console.Out.WriteLine(nodes.Length == 1 ? answer.Result : $"{name}: {answer.Result}");
            Add(totals, answer.Result);
        }

        if (nodes.Length > 1)
        {
            console.Out.WriteLine("total: " + string.Join(' ', totals.Select(t => string.Create(CultureInfo.InvariantCulture, $"{t.Name}={t.Value}"))));
        }

        console.Out.Flush();
        return silent == 0 ? 0 : 1;
    }

    /// <summary>Whether <paramref name="name"/> is a time (in µs, such as the transport's mean learned timeout), not a count: the total keeps the largest node's, as a sum of times means nothing.</summary>
    private static bool IsTime(string name) => name.EndsWith("Us", StringComparison.Ordinal);

    /// <summary>Adds each <c>Name=value</c> of <paramref name="line"/> to <paramref name="totals"/>, in the order first seen: counts summed, times the largest.</summary>
    private static void Add(List<(string Name, long Value)> totals, string line)
    {
        foreach (var pair in line.Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            var equals = pair.IndexOf('=', StringComparison.Ordinal);
            if (equals <= 0 || !long.TryParse(pair.AsSpan(equals + 1), NumberStyles.Integer, CultureInfo.InvariantCulture, out var value))
            {
                continue;
            }

            var name = pair[..equals];
            var at = totals.FindIndex(t => t.Name == name);
            if (at < 0)
            {
                totals.Add((name, value));
            }
            else
            {
                totals[at] = (name, IsTime(name) ? Math.Max(totals[at].Value, value) : totals[at].Value + value);
            }
        }
    }
}
