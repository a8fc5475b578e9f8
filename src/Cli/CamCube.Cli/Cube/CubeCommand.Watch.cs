using System.Globalization;
using System.Text;
using System.Text.Json;
using CamCube.Hosting.Control;

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
        Func<Task<(Coordinate Self, int? Pid, NodeStatus? Status)[]>> statuses,
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
    internal static string RenderTable(IEnumerable<(Coordinate Self, int? Pid, NodeStatus? Status)> statuses, TorusShape shape)
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

            up++;
            var dropped = status.Dropped.Values.Sum();

            // Datagrams the transport refused before the runtime saw them: bad tag, replay, unknown sender, malformed.
            var rejected = status.TransportDropped.Total;
            var memcached = status.Listeners.TryGetValue("memcached", out var m) ? m : "-";
            text.AppendLine(CultureInfo.InvariantCulture, $"{name,-9} {(pid?.ToString(CultureInfo.InvariantCulture) ?? "-"),7} {status.LinksUp + "/" + status.LinkCount,6} {status.Reachable,6} {status.FramesSent,10} {status.FramesReceived,10} {dropped,8} {rejected,8}  {memcached}");
        }

        text.Append(CultureInfo.InvariantCulture, $"{up} of {total} nodes of {shape} answering");
        return text.ToString();
    }

    private static int Status(string[] args, CliConsole console)
    {
        var reader = new ArgumentReader("cube status", args, ["--state-dir"], ["--json"]);
        var layout = CubeLayout.Default(reader.Single("--state-dir"));
        var state = RequireCube(layout);
        var statuses = Task.WhenAll(state.Nodes.Select(async n =>
        {
            var coord = Coordinate.Parse(n.Coord);
            var status = n.Running
                ? await ControlClient.TryAskAsync(n.ControlSocket, "status", ControlJsonContext.Default.NodeStatus, TimeSpan.FromSeconds(3)).ConfigureAwait(false)
                : null;
            return (coord, n.Pid, status);
        })).GetAwaiter().GetResult();
        if (reader.Flag("--json"))
        {
            console.Out.WriteLine(StatusJson(statuses));
            return CliApp.ExitOk;
        }

        console.Out.WriteLine(RenderTable(statuses, TorusShape.Parse(state.Shape)));
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
        var state = RequireCube(layout);
        var shape = TorusShape.Parse(state.Shape);
        var target = ArgumentReader.ParseCoordinate("cube " + verb, reader.Positional[0], shape);
        var answer = ControlClient.TryAskAsync(layout.SupervisorSocket, $"{verb} {target.X},{target.Y},{target.Z}", CliJsonContext.Default.NodeChange, TimeSpan.FromSeconds(60)).GetAwaiter().GetResult()
            ?? throw new CommandFailedException($"the supervisor in {layout.Directory} stopped answering.");
        if (answer.Error is { } error)
        {
            console.Error.WriteLine($"camcube cube {verb}: {error}");
            return CliApp.ExitFailure;
        }

        console.Out.WriteLine(verb == "kill" ? $"killed node {target}" : $"started node {target}");
        return CliApp.ExitOk;
    }

    private static int Down(string[] args, CliConsole console)
    {
        var reader = new ArgumentReader("cube down", args, ["--state-dir"], []);
        var layout = CubeLayout.Default(reader.Single("--state-dir"));
        var pid = RequireCube(layout).SupervisorPid;

        // No answer is fine too: a supervisor may close the connection as it stops. Its exit is what counts.
        _ = ControlClient.TryAskAsync(layout.SupervisorSocket, "down", ControlJsonContext.Default.Acknowledgement, TimeSpan.FromSeconds(10)).GetAwaiter().GetResult();

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
    internal static SupervisorStatus RequireCube(CubeLayout layout) =>
        ControlClient.TryAskAsync(layout.SupervisorSocket, "status", CliJsonContext.Default.SupervisorStatus, TimeSpan.FromSeconds(5)).GetAwaiter().GetResult()
        ?? throw new CommandFailedException($"no cube is running (nothing answers in {layout.Directory}); start one with 'camcube cube up', or give --state-dir.");

    /// <summary>`cube status --json`: an array of every node's status, or of <c>{"self","running":false}</c> for one that does not answer.</summary>
    internal static string StatusJson(IEnumerable<(Coordinate Self, int? Pid, NodeStatus? Status)> statuses)
    {
        var buffer = new System.Buffers.ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartArray();
            foreach (var (self, _, status) in statuses)
            {
                if (status is null)
                {
                    JsonSerializer.Serialize(writer, new NodeDown(ControlCommandsFormat(self), Running: false), CliJsonContext.Default.NodeDown);
                }
                else
                {
                    JsonSerializer.Serialize(writer, status, ControlJsonContext.Default.NodeStatus);
                }
            }

            writer.WriteEndArray();
        }

        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }

    private static string ControlCommandsFormat(Coordinate c) => string.Create(CultureInfo.InvariantCulture, $"{c.X},{c.Y},{c.Z}");
}
