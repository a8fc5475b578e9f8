using System.Globalization;
using System.Text;
using System.Text.Json;

namespace CamCube.Cli.Cube;

/// <content>The live view of `cube up`, and `cube status`, `kill`, `start`, `down`.</content>
internal static partial class CubeCommand
{
    /// <summary>How `cube up` shows the cube while it runs.</summary>
    internal enum LiveView
    {
        /// <summary>Nothing (a detached supervisor).</summary>
        None,

        /// <summary>The table each time it changes, one after another (output to a file or pipe).</summary>
        Changes,

        /// <summary>The table redrawn in place every second (a terminal).</summary>
        Screen,
    }

    private static LiveView LiveViewMode() => Console.IsOutputRedirected ? LiveView.Changes : LiveView.Screen;

    /// <summary>Shows the cube's table every second (as <paramref name="view"/> says) until stopped or until `cube down` asks.</summary>
    internal static async Task WatchAsync(
        Func<Task<(Coordinate Self, int? Pid, JsonDocument? Status)[]>> statuses,
        TorusShape shape,
        Task downRequested,
        CliConsole console,
        LiveView view,
        TimeProvider time,
        CancellationToken stop)
    {
        var last = string.Empty;
        while (!stop.IsCancellationRequested && !downRequested.IsCompleted)
        {
            if (view != LiveView.None)
            {
                var table = RenderTable(await statuses().ConfigureAwait(false), shape);
                if (view == LiveView.Screen)
                {
                    console.Out.Write("\u001b[H\u001b[2J" + table + "\nCtrl-C stops the cube.\n");
                    console.Out.Flush();
                }
                else if (table != last)
                {
                    console.Out.WriteLine(table);
                    console.Out.Flush();
                    last = table;
                }
            }

            await Task.WhenAny(Task.Delay(TimeSpan.FromSeconds(1), time, stop), downRequested).ConfigureAwait(false);
        }
    }

    /// <summary>One line per node: links up, reachable servers, frames, and drops, so a failure drill is visible at a glance.</summary>
    internal static string RenderTable(IEnumerable<(Coordinate Self, int? Pid, JsonDocument? Status)> statuses, TorusShape shape)
    {
        var text = new StringBuilder();
        text.AppendLine(CultureInfo.InvariantCulture, $"{"node",-9} {"pid",7} {"links",6} {"reach",6} {"sent",10} {"received",10} {"dropped",8} {"rejected",8}  memcached");
        var up = 0;
        var total = 0;
        foreach (var (self, pid, status) in statuses)
        {
            total++;
            var name = string.Create(CultureInfo.InvariantCulture, $"{self.X},{self.Y},{self.Z}");
            if (status is null)
            {
                text.AppendLine(CultureInfo.InvariantCulture, $"{name,-9} {(pid?.ToString(CultureInfo.InvariantCulture) ?? "-"),7} {"down",6}");
                continue;
            }

            using (status)
            {
                up++;
                var r = status.RootElement;
                var dropped = r.GetProperty("dropped").EnumerateObject().Sum(p => p.Value.GetInt64());

                // Datagrams the transport refused before the runtime saw them: bad tag, replay, unknown sender, malformed.
                var rejected = r.TryGetProperty("transportDropped", out var t) ? t.EnumerateObject().Sum(p => p.Value.GetInt64()) : 0;
                var memcached = r.TryGetProperty("memcached", out var m) ? m.GetString() : "-";
                text.AppendLine(CultureInfo.InvariantCulture, $"{name,-9} {(pid?.ToString(CultureInfo.InvariantCulture) ?? "-"),7} {r.GetProperty("linksUp").GetInt32() + "/" + r.GetProperty("linkCount").GetInt32(),6} {r.GetProperty("reachable").GetInt64(),6} {r.GetProperty("framesSent").GetInt64(),10} {r.GetProperty("framesReceived").GetInt64(),10} {dropped,8} {rejected,8}  {memcached}");
            }
        }

        text.Append(CultureInfo.InvariantCulture, $"{up} of {total} nodes of {shape} answering");
        return text.ToString();
    }

    private static int Status(string[] args, CliConsole console)
    {
        var reader = new ArgumentReader("cube status", args, ["--state-dir"], ["--json"]);
        var layout = CubeLayout.Default(reader.Single("--state-dir"));
        using var state = RequireCube(layout);
        var nodes = state.RootElement.GetProperty("nodes").EnumerateArray().ToArray();
        var statuses = Task.WhenAll(nodes.Select(async n =>
        {
            var coord = Coordinate.Parse(n.GetProperty("coord").GetString()!);
            int? pid = n.TryGetProperty("pid", out var p) ? p.GetInt32() : null;
            var status = n.GetProperty("running").GetBoolean()
                ? await ControlClient.TryAskAsync(n.GetProperty("controlSocket").GetString()!, "status", TimeSpan.FromSeconds(3)).ConfigureAwait(false)
                : null;
            return (coord, pid, status);
        })).GetAwaiter().GetResult();
        if (reader.Flag("--json"))
        {
            console.Out.Write("[");
            for (var i = 0; i < statuses.Length; i++)
            {
                var (coord, _, status) = statuses[i];
                console.Out.Write(i == 0 ? string.Empty : ",");
                console.Out.Write(status is null ? $"{{\"self\":\"{coord.X},{coord.Y},{coord.Z}\",\"running\":false}}" : status.RootElement.GetRawText());
                status?.Dispose();
            }

            console.Out.WriteLine("]");
            return CliApp.ExitOk;
        }

        console.Out.WriteLine(RenderTable(statuses, TorusShape.Parse(state.RootElement.GetProperty("shape").GetString()!)));
        return CliApp.ExitOk;
    }

    private static int Tell(string[] args, CliConsole console, string verb)
    {
        var reader = new ArgumentReader("cube " + verb, args, ["--state-dir"], []);
        if (reader.Positional.Count != 1)
        {
            throw new UsageException($"cube {verb}: give one node coordinate, such as 1,1,1.");
        }

        var layout = CubeLayout.Default(reader.Single("--state-dir"));
        using var state = RequireCube(layout);
        var shape = TorusShape.Parse(state.RootElement.GetProperty("shape").GetString()!);
        var target = ArgumentReader.ParseCoordinate("cube " + verb, reader.Positional[0], shape);
        using var answer = ControlClient.TryAskAsync(layout.SupervisorSocket, $"{verb} {target.X},{target.Y},{target.Z}", TimeSpan.FromSeconds(60)).GetAwaiter().GetResult()
            ?? throw new CommandFailedException($"the supervisor in {layout.Directory} stopped answering.");
        if (answer.RootElement.TryGetProperty("error", out var error))
        {
            console.Error.WriteLine($"camcube cube {verb}: {error.GetString()}");
            return CliApp.ExitFailure;
        }

        console.Out.WriteLine(verb == "kill" ? $"killed node {target}" : $"started node {target}");
        return CliApp.ExitOk;
    }

    private static int Down(string[] args, CliConsole console)
    {
        var reader = new ArgumentReader("cube down", args, ["--state-dir"], []);
        var layout = CubeLayout.Default(reader.Single("--state-dir"));
        using var state = RequireCube(layout);
        var pid = state.RootElement.GetProperty("supervisorPid").GetInt32();
        // No answer is fine too: a supervisor may close the connection as it stops. Its exit is what counts.
        using (ControlClient.TryAskAsync(layout.SupervisorSocket, "down", TimeSpan.FromSeconds(10)).GetAwaiter().GetResult())
        {
        }

        // The supervisor stops every node and then exits; wait for it so the ports are free on return.
        try
        {
            using var process = System.Diagnostics.Process.GetProcessById(pid);
            if (!process.WaitForExit(TimeSpan.FromSeconds(30)))
            {
                console.Error.WriteLine($"camcube cube down: the supervisor (pid {pid}) did not exit within 30 s.");
                return CliApp.ExitFailure;
            }
        }
        catch (ArgumentException)
        {
            // Already gone.
        }

        console.Out.WriteLine("The cube is down.");
        return CliApp.ExitOk;
    }

    /// <summary>Asks the supervisor for the cube's state, or explains that no cube runs.</summary>
    internal static JsonDocument RequireCube(CubeLayout layout) =>
        ControlClient.TryAskAsync(layout.SupervisorSocket, "status", TimeSpan.FromSeconds(5)).GetAwaiter().GetResult()
        ?? throw new CommandFailedException($"no cube is running (nothing answers in {layout.Directory}); start one with 'camcube cube up', or give --state-dir.");
}
