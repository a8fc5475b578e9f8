using System.Globalization;
using System.Text.Json;
using CamCube.Cli.Cube;
using CamCube.Hosting.Control;

namespace CamCube.Cli;

/// <summary>`camcube ping &lt;from&gt; &lt;to&gt;`: a ping through the runtime of a running cube, from one node to another.</summary>
internal static class PingCommand
{
    public const string Usage = """
        usage: camcube ping <from x,y,z> <to x,y,z> [--count n] [--timeout-ms 2000] [--json] [--state-dir DIR]

        Routes ping requests from one node of the running cube to another and back; prints the hop
        count and the round-trip time (min, median, max). --json prints
        {"from","to","hops","rttMicroseconds":{"min","median","max"},"lost"}.
        """;

    public static int Run(IReadOnlyList<string> args, CliConsole console)
    {
        var reader = new ArgumentReader("ping", args, ["--count", "--timeout-ms", "--state-dir"], ["--json"]);
        if (reader.Positional.Count != 2)
        {
            throw new UsageException("ping: give two node coordinates, from and to, such as 0,0,0 1,1,1.");
        }

        var count = reader.Int("--count", 4, 1, 100_000);
        var timeout = reader.Int("--timeout-ms", 2_000, 1, 600_000);
        var layout = CubeLayout.Default(reader.Single("--state-dir"));
        var shape = TorusShape.Parse(CubeCommand.RequireCube(layout).Shape);
        var from = ArgumentReader.ParseCoordinate("ping <from>", reader.Positional[0], shape);
        var to = ArgumentReader.ParseCoordinate("ping <to>", reader.Positional[1], shape);
        var request = string.Create(CultureInfo.InvariantCulture, $"ping {to.X},{to.Y},{to.Z} {count} {timeout}");
        PingResult r;
        try
        {
            r = ControlClient.AskAsync(layout.NodeSocket(from), request, ControlJsonContext.Default.PingResult, TimeSpan.FromMilliseconds(((long)count * timeout) + 5_000)).GetAwaiter().GetResult();
        }
        catch (Exception ex) when (ex is System.Net.Sockets.SocketException or IOException or OperationCanceledException)
        {
            console.Error.WriteLine($"camcube ping: node {from} does not answer ({ex.Message}); is it killed? ('camcube cube status')");
            return CliApp.ExitFailure;
        }

        if (r.Error is { } error)
        {
            console.Error.WriteLine($"camcube ping: {error}");
            return CliApp.ExitFailure;
        }

        if (reader.Flag("--json"))
        {
            var line = new PingLine { From = [from.X, from.Y, from.Z], To = [to.X, to.Y, to.Z], Hops = r.Hops, RttMicroseconds = r.RttMicroseconds, Lost = r.Lost };
            console.Out.WriteLine(JsonSerializer.Serialize(line, CliJsonContext.Default.PingLine));
        }
        else if (r.Hops is not { } hops || r.RttMicroseconds is not { } rtt)
        {
            console.Out.WriteLine($"ping {from} -> {to}: all {count} lost");
        }
        else
        {
            console.Out.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"ping {from} -> {to}: {hops} hops, rtt min/median/max {rtt.Min}/{rtt.Median}/{rtt.Max} us, {r.Lost} of {count} lost"));
        }

        return r.Lost == count ? CliApp.ExitFailure : CliApp.ExitOk;
    }
}
