using System.Runtime.InteropServices;
using CamCube.Hosting.Control;
using Microsoft.Extensions.Logging;

namespace CamCube.Cli.Cube;

/// <summary>`camcube cube up|status|kill|start|down`: a whole cube on this machine, for work and for failure drills.</summary>
internal static partial class CubeCommand
{
    public const string Usage = """
        usage: camcube cube <up|status|kill|start|down> [options]

          cube up [--shape 3x3x3] [--base-port 17000] [--memcached-port 11211 | --no-memcached]
                  [--kv-port 11311 | --no-kv] [--kv-storage sqlite|memory] [--kv-delivery reliable|best-effort]
                  [--kv-value-max BYTES] [--kv-durability fsync|no-fsync] [--kv-rereplication-delay-s 180] [--kv-cache]
                  [--in-process] [--detach] [--heartbeat-ms 100] [--timeout-ms T] [--node PROGRAM]
                        start one node per server on loopback (child processes, or threads with --in-process),
                        show their state live, and stop them all on Ctrl-C; --detach leaves the cube running;
                        --node runs your node program (a .dll run with dotnet, or an executable built on
                        CamCube.Hosting) instead of the built-in node, passing it --CamCube:Shape=...,
                        --CamCube:Coordinate=..., ports, key file, control socket and timing as settings;
                        the built-in node runs the replicated key-value store, each node's database in the
                        state directory's data (sqlite, kept across cubes) or in memory, and its memcached
                        front-end on --kv-port + i (camcube kv talks to it); its messages travel on the
                        reliable transport (a lost packet is resent, a write runs once) unless --kv-delivery
                        best-effort, the same on every node; --kv-value-max: the largest value it takes (default
                        8192 bytes, up to 64 MiB less 64 KiB; a larger one is answered SERVER_ERROR object too large
                        for cache); --kv-durability no-fsync: sqlite commits are written to the operating system,
                        not flushed (a killed node loses nothing, a host that crashes may lose its last commits;
                        default fsync); --kv-rereplication-delay-s: t, how long after a node became unreachable
                        the store copies its keys to the nodes that replaced it (default 180, less than a day);
                        --kv-cache: every node's cache reads the store beside it on a miss at a key's root and
                        keeps no second copy of what the store holds (camcubeos 5.2, memId = objId), so the cache
                        on --memcached-port serves the store's values by the same names, which its delete and
                        flush_all do not remove (off by default); --timeout-ms: how long a silent link stays up
                        (default 1000 for processes, which share this machine's cores; 3.5 heartbeats in-process)
          cube health x,y,z      ask a node's health checks (links up, servers reachable, loop responsive): exit 0
                                 when healthy or degraded, 1 when unhealthy or silent
          cube kv-stats [x,y,z]  what the key-value store did on a node (no node: on each, then summed): writes,
                                 accepts, commits, take-overs, reads under lease and confirm rounds, catch-up
          cube status [--json]   each node's links, reachable servers and traffic; 'dropped' counts frames the runtime
                                 dropped, 'rejected' datagrams the transport refused (bad tag, replay, unknown sender, malformed)
          cube kill x,y,z        kill a node's process (a crash), for failure drills
          cube start x,y,z       start a killed node again
          cube down              stop the cube
          cube faults <x,y,z|all> [--drop P] [--delay-ms D] [--duplicate P] [--reorder P]
                                 inject random faults between a node's runtime and the network (no options: none);
                                 P is a probability from 0 to 1, D milliseconds from 0 to 60000
          cube cut <x,y,z|all> <link>  cut a node's link (+x, -x, +y, -y, +z, -z); cube restore ... repairs it

        The cube keeps its key, control sockets and logs in CAMCUBE_STATE_DIR (default: $XDG_RUNTIME_DIR/camcube,
        else /tmp/camcube-<user>); every command finds the running cube there, or give --state-dir. The directory
        must belong to you and be writable by no one else; it is created with mode 0700.
        """;

    public static int Run(IReadOnlyList<string> args, CliConsole console)
    {
        if (args.Count == 0)
        {
            throw new UsageException("cube: say up, status, kill, start or down.");
        }

        var rest = args.Skip(1).ToArray();
        return args[0] switch
        {
            "up" => Up(rest, console),
            "status" => Status(rest, console),
            "kill" => Tell(rest, console, "kill"),
            "start" => Tell(rest, console, "start"),
            "down" => Down(rest, console),
            "health" => Health(rest, console),
            "kv-stats" => KvStats(rest, console),
            "faults" => Faults(rest, console),
            "cut" => Cut(rest, console, "cut"),
            "restore" => Cut(rest, console, "restore"),
            _ => throw new UsageException($"cube: unknown subcommand '{args[0]}'; use up, status, kill, start or down."),
        };
    }

    /// <summary>Reads `cube up`'s arguments into the cube's options; the reader keeps the flags, the state directory and the instance.</summary>
    /// <exception cref="UsageException">An argument is unknown, repeated, malformed or out of range.</exception>
    internal static (CubeOptions Options, ArgumentReader Reader) ReadUp(IReadOnlyList<string> args)
    {
        var reader = new ArgumentReader("cube up", args, ["--shape", "--base-port", "--memcached-port", "--kv-port", "--kv-storage", "--kv-delivery", "--kv-value-max", "--kv-durability", "--kv-rereplication-delay-s", "--heartbeat-ms", "--timeout-ms", "--state-dir", "--instance", "--node"], ["--in-process", "--detach", "--no-memcached", "--no-kv", "--kv-cache", "--supervise"]);
        if (reader.Positional.Count > 0)
        {
            throw new UsageException($"cube up: unexpected argument '{reader.Positional[0]}'.");
        }

        var shape = ArgumentReader.ParseShape(reader.Single("--shape") ?? "3x3x3");
        if (shape.ServerCount > 1_000)
        {
            throw new UsageException($"cube up: {shape} has {shape.ServerCount} servers; a cube on one machine runs at most 1000 (use the simulator for more).");
        }

        var defaults = new CubeOptions { Shape = shape };
        var heartbeat = reader.Int("--heartbeat-ms", (int)defaults.HeartbeatInterval.TotalMilliseconds, 1, 60_000);
        var program = reader.Single("--node") is { } node ? NodeProgram(node) : null;
        if (program is not null && reader.Flag("--in-process"))
        {
            throw new UsageException("cube up: --node runs a node program as processes; --in-process runs the built-in node only.");
        }

        var options = new CubeOptions
        {
            NodeProgram = program,
            Shape = shape,
            BasePort = reader.Int("--base-port", Hosting.CamCubeNodeOptions.DefaultBasePort, 1, 65_535 - (int)shape.ServerCount),
            MemcachedBasePort = reader.Flag("--no-memcached") || program is not null ? null : reader.Int("--memcached-port", 11_211, 1, 65_535 - (int)shape.ServerCount),
            KeyValueBasePort = reader.Flag("--no-kv") || program is not null ? null : reader.Int("--kv-port", defaults.KeyValueBasePort!.Value, 1, 65_535 - (int)shape.ServerCount),
            KeyValueStorage = KeyValueStorage(reader.Single("--kv-storage")),
            KeyValueDelivery = reader.Single("--kv-delivery") is { } delivery
                ? Nodes.KeyValueNodeSettings.ParseDelivery(delivery) ?? throw new UsageException($"--kv-delivery: '{delivery}' is neither {Nodes.KeyValueNodeSettings.Reliable} nor {Nodes.KeyValueNodeSettings.BestEffort}.")
                : null,
            KeyValueValueBytesMax = reader.Single("--kv-value-max") is { } valueMax
                ? Nodes.KeyValueNodeSettings.ParseValueBytesMax(valueMax) ?? throw new UsageException($"--kv-value-max: '{valueMax}' is not a whole number of bytes from 1 to {Nodes.KeyValueNodeSettings.ValueBytesLimit}.")
                : null,
            KeyValueDurability = KeyValueDurability(reader.Single("--kv-durability"), reader.Single("--kv-storage")),
            KeyValueReReplicationDelay = reader.Single("--kv-rereplication-delay-s") is not null
                ? TimeSpan.FromSeconds(reader.Int("--kv-rereplication-delay-s", 0, 1, (int)Nodes.KeyValueNodeSettings.ReReplicationDelayLimit.TotalSeconds - 1))
                : null,
            KeyValueCacheReadsStore = reader.Flag("--kv-cache"),
            InProcess = reader.Flag("--in-process"),
            HeartbeatInterval = TimeSpan.FromMilliseconds(heartbeat),
            HeartbeatTimeout = reader.Single("--timeout-ms") is not null ? TimeSpan.FromMilliseconds(reader.Int("--timeout-ms", 0, heartbeat + 1, 600_000))
                : reader.Flag("--in-process") ? null
                : ProcessCubeLinkTimeout(TimeSpan.FromMilliseconds(heartbeat)),
        };
        return (options, reader);
    }

    /// <summary>
    /// The link timeout of a cube of processes on this machine unless --timeout-ms says otherwise: at
    /// least a second (and 3.5 heartbeats). The processes share the machine's cores, and while they
    /// compile their code (a cold cube's first sets) a node's loop can wait longer than the node's own
    /// 350 ms for the CPU: its neighbours took its links down and servers turned unreachable for a
    /// moment (25-89 link flaps in a cold cube's first 4,000 sets, none with a second; docs/decisions.md).
    /// </summary>
    internal static TimeSpan ProcessCubeLinkTimeout(TimeSpan heartbeat) =>
        TimeSpan.FromTicks(Math.Max(TimeSpan.TicksPerSecond, (long)(heartbeat.Ticks * Hosting.CamCubeNodeOptions.HeartbeatTimeoutIntervals)));

    /// <summary>The store's backend named by --kv-storage: sqlite (the default) or memory.</summary>
    private static string KeyValueStorage(string? name) => name switch
    {
        null or Nodes.KeyValueNodeSettings.Sqlite => Nodes.KeyValueNodeSettings.Sqlite,
        Nodes.KeyValueNodeSettings.Memory => Nodes.KeyValueNodeSettings.Memory,
        _ => throw new UsageException($"--kv-storage: '{name}' is neither sqlite nor memory."),
    };

    /// <summary>The durability named by --kv-durability (fsync or no-fsync), for the sqlite storage only; null when not given.</summary>
    private static Services.KeyValue.Storage.SqliteDurability? KeyValueDurability(string? name, string? storage)
    {
        if (name is null)
        {
            return null;
        }

        var durability = Nodes.KeyValueNodeSettings.ParseDurability(name)
            ?? throw new UsageException($"--kv-durability: '{name}' is neither {Nodes.KeyValueNodeSettings.Fsync} nor {Nodes.KeyValueNodeSettings.NoFsync}.");
        return storage == Nodes.KeyValueNodeSettings.Memory
            ? throw new UsageException("--kv-durability: only the sqlite storage has one; --kv-storage memory keeps nothing on disk.")
            : durability;
    }

    /// <summary>The full path of a node program, checked to exist.</summary>
    private static string NodeProgram(string path)
    {
        var full = Path.GetFullPath(path);
        return File.Exists(full)
            ? full
            : throw new UsageException($"--node: '{path}' does not exist; give a node program built on CamCube.Hosting (its .dll, or an executable).");
    }

    private static int Up(string[] args, CliConsole console)
    {
        var (options, reader) = ReadUp(args);
        var shape = options.Shape;
        var layout = CubeLayout.Default(reader.Single("--state-dir"));
        layout.CheckSocketPaths(shape);
        StateDirectory.EnsurePrivate(layout.Directory);
        if (reader.Flag("--detach") && !reader.Flag("--supervise"))
        {
            return Detach(args, layout, console);
        }

        return RunSupervisor(options with { Instance = reader.Single("--instance") }, layout, console, live: !reader.Flag("--supervise")).GetAwaiter().GetResult();
    }

    private static async Task<int> RunSupervisor(CubeOptions options, CubeLayout layout, CliConsole console, bool live)
    {
        // The lock first: while it is held, nothing else may start a cube here, and a refused
        // command returns before it has touched anything of the running one (key, sockets, logs).
        using var stateLock = StateLock.TryTake(layout)
            ?? throw new CommandFailedException($"a cube is already running or starting in {layout.Directory} (another 'cube up' holds {layout.LockFile}); stop it with 'camcube cube down' first.");
        if (options.Instance is { } instance && File.Exists(layout.StartingLog(instance)))
        {
            // Detached: this start's log becomes the cube's log only now that the cube is ours.
            File.Move(layout.StartingLog(instance), layout.SupervisorLog, overwrite: true);
        }

        using var loggerFactory = LoggerFactory.Create(b => b.AddSimpleConsole(o => o.SingleLine = true).SetMinimumLevel(live ? LogLevel.Warning : LogLevel.Information));
        using var stop = new CancellationTokenSource();
        using var sigint = PosixSignalRegistration.Create(PosixSignal.SIGINT, c => { c.Cancel = true; stop.Cancel(); });
        using var sigterm = PosixSignalRegistration.Create(PosixSignal.SIGTERM, c => { c.Cancel = true; stop.Cancel(); });

        // A closed terminal (SIGHUP) stops the cube cleanly too, rather than ending this process under its nodes.
        using var sighup = PosixSignalRegistration.Create(PosixSignal.SIGHUP, c => { c.Cancel = true; stop.Cancel(); });
        var supervisor = new CubeSupervisor(layout, options, loggerFactory);
        await supervisor.CheckNothingRunsAsync().ConfigureAwait(false);
        try
        {
            console.Out.WriteLine($"Starting a {options.Shape} cube: {options.Shape.ServerCount} nodes {(options.InProcess ? "in this process" : "as processes")}, UDP ports {options.BasePort}-{options.BasePort + options.Shape.ServerCount - 1} on 127.0.0.1 ...");
            console.Out.Flush();
            await supervisor.StartAsync(TimeSpan.FromSeconds(90), stop.Token).ConfigureAwait(false);
            PrintEndpoints(options, layout, console);
            console.Out.WriteLine(live ? "The cube is up. Ctrl-C stops it; in another terminal try: camcube cube status, camcube ping 0,0,0 1,1,1" : "The cube is up.");
            console.Out.Flush();
            await WatchAsync(supervisor.GetStatusesAsync, supervisor.Options.Shape, supervisor.DownRequested, console, live ? LiveViewMode() : LiveView.None, TimeProvider.System, stop.Token).ConfigureAwait(false);
            return CliApp.ExitOk;
        }
        catch (OperationCanceledException)
        {
            return CliApp.ExitOk;
        }
        catch (InvalidOperationException ex)
        {
            console.Error.WriteLine($"camcube cube up: {ex.Message}");
            return CliApp.ExitFailure;
        }
        finally
        {
            console.Out.WriteLine("Stopping the cube ...");
            console.Out.Flush();
            await supervisor.DisposeAsync().ConfigureAwait(false);
            console.Out.WriteLine("Stopped.");
            console.Out.Flush();
        }
    }

    private static void PrintEndpoints(CubeOptions options, CubeLayout layout, CliConsole console)
    {
        if (options.MemcachedBasePort is { } memcached)
        {
            console.Out.WriteLine($"memcached front-ends: node (0,0,0) on 127.0.0.1:{memcached}, node i on 127.0.0.1:{memcached}+i (up to {memcached + options.Shape.ServerCount - 1})");
        }

        if (options.KeyValueBasePort is { } kv)
        {
            console.Out.WriteLine($"key-value store ({options.KeyValueStorage}{(options.KeyValueDurability is { } durability ? ", " + Nodes.KeyValueNodeSettings.NameOf(durability) : "")}): memcached front-ends on 127.0.0.1:{kv}+i (up to {kv + options.Shape.ServerCount - 1}); camcube kv talks to them");
        }

        console.Out.WriteLine($"state, key and logs: {layout.Directory}");
    }

    private static int Detach(string[] args, CubeLayout layout, CliConsole console)
    {
        // Refuse before writing anything: a running cube keeps its key and its log.
        if (ControlClient.TryAskAsync(layout.SupervisorSocket, "status", CliJsonContext.Default.SupervisorStatus, TimeSpan.FromSeconds(2)).GetAwaiter().GetResult() is { } running)
        {
            throw new CommandFailedException($"a cube is already running (supervisor pid {running.SupervisorPid}, state in {layout.Directory}); stop it with 'camcube cube down' first.");
        }

        using (var probe = StateLock.TryTake(layout))
        {
            if (probe is null)
            {
                throw new CommandFailedException($"a cube is already running or starting in {layout.Directory} (another 'cube up' holds {layout.LockFile}); stop it with 'camcube cube down' first.");
            }
        }

        StateDirectory.CreatePrivate(layout.LogDirectory);
        var instance = Guid.NewGuid().ToString("N");
        var self = SelfInvocation.CreateStartInfo();

        // Until it holds the lock, the supervisor writes to a log of its own (renamed to supervisor.log
        // once the cube is its own): a start that loses the race for the lock overwrites nothing.
        var startingLog = layout.StartingLog(instance);

        // A new session (setsid), output to a file, no terminal: the supervisor outlives this command and its Ctrl-C.
        var start = new System.Diagnostics.ProcessStartInfo("/bin/sh") { UseShellExecute = false };
        start.ArgumentList.Add("-c");
        start.ArgumentList.Add("umask 077; exec setsid \"$@\" > \"$LOG\" 2>&1 < /dev/null");
        start.ArgumentList.Add("sh");
        start.ArgumentList.Add(self.FileName);
        foreach (var arg in self.ArgumentList.Concat(["cube", "up"]).Concat(WithoutStateDirectory(args)).Concat(["--supervise", "--state-dir", layout.Directory, "--instance", instance]))
        {
            start.ArgumentList.Add(arg);
        }

        start.Environment["LOG"] = startingLog;
        using var child = System.Diagnostics.Process.Start(start)!;
        var deadline = TimeProvider.System.GetTimestamp() + (120 * TimeProvider.System.TimestampFrequency);
        while (TimeProvider.System.GetTimestamp() < deadline)
        {
            var status = ControlClient.TryAskAsync(layout.SupervisorSocket, "status", CliJsonContext.Default.SupervisorStatus, TimeSpan.FromSeconds(1)).GetAwaiter().GetResult();
            if (status is not null && status.Instance == instance)
            {
                console.Out.WriteLine($"The cube is up in the background (supervisor pid {status.SupervisorPid}); 'camcube cube down' stops it. Log: {layout.SupervisorLog}");
                return CliApp.ExitOk;
            }

            if (child.HasExited)
            {
                var log = File.Exists(startingLog) ? startingLog : layout.SupervisorLog;
                var reason = FailureLine(log);
                if (log == startingLog)
                {
                    File.Delete(startingLog);
                }

                console.Error.WriteLine($"camcube cube up: the cube did not start: {reason}");
                return CliApp.ExitFailure;
            }

            Task.Delay(TimeSpan.FromMilliseconds(200), TimeProvider.System).GetAwaiter().GetResult();
        }

        console.Error.WriteLine($"camcube cube up: the cube did not answer within 120 s; see {layout.SupervisorLog}");
        return CliApp.ExitFailure;
    }

    /// <summary>The line of a supervisor's log that says why it stopped ('camcube cube up: ...'), without the prefix.</summary>
    /// <summary>The user's arguments less <c>--state-dir</c> (either form): the supervisor is given the resolved directory once.</summary>
    private static IEnumerable<string> WithoutStateDirectory(string[] args)
    {
        for (var i = 0; i < args.Length; i++)
        {
            if (args[i] == "--state-dir")
            {
                i++;
                continue;
            }

            if (!args[i].StartsWith("--state-dir=", StringComparison.Ordinal))
            {
                yield return args[i];
            }
        }
    }

    private static string FailureLine(string log)
    {
        const string Prefix = "camcube cube up: ";
        var lines = File.Exists(log) ? File.ReadAllLines(log) : [];
        var line = Array.FindLast(lines, l => l.StartsWith(Prefix, StringComparison.Ordinal));

        // An argument the supervisor refused is told as "camcube: ..." before the usage text.
        var refusal = Array.FindLast(lines, l => l.StartsWith("camcube", StringComparison.Ordinal) && l.Contains(": ", StringComparison.Ordinal));
        return line is not null ? line[Prefix.Length..] : refusal ?? (lines.Length > 0 ? lines[^1] : "(the supervisor wrote nothing)");
    }
}
