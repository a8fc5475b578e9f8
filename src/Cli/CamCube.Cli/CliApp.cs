using System.Reflection;

namespace CamCube.Cli;

/// <summary>Dispatches <c>camcube &lt;command&gt;</c> and turns usage errors into a message and exit code 2.</summary>
internal static class CliApp
{
    /// <summary>Exit code of a command that ran.</summary>
    public const int ExitOk = 0;

    /// <summary>Exit code of a command that failed while running.</summary>
    public const int ExitFailure = 1;

    /// <summary>Exit code of a command line that could not be run as given.</summary>
    public const int ExitUsage = 2;

    private const string Usage = """
        camcube: CamCube for .NET, a framework for servers wired in a 3D torus

        usage: camcube <command> [options]

        commands:
          key        which servers hold a key: its id, key coordinate and GetServersForKey
          cube       run a whole cube on this machine: up, status, kill, start, down
          ping       ping from one node of the running cube to another
          kv         put, get, cas or delete a value in the running cube's key-value store
          node       run one server of a cube over UDP (the generic host; stops on SIGTERM or Ctrl-C)
          health     ask a running node for its health (for container probes): exit 0 healthy, 1 not
          compose    write a docker compose file for a cube
          sim        run the papers' scale and churn experiments in the packet-level simulator
          help       this text, or 'camcube help <command>'

        'camcube <command> --help' describes a command's options.
        """;

    public static int Run(IReadOnlyList<string> args, CliConsole console)
    {
        if (args.Count == 0 || args[0] is "help" or "--help" or "-h")
        {
            var topic = args.Count > 1 ? args[1] : null;
            if (topic is not null && UsageOf(topic) is null)
            {
                console.Error.WriteLine($"camcube help: no command '{topic}'; the commands are key, cube, ping, kv, node, health, compose, sim.");
                return ExitUsage;
            }

            console.Out.WriteLine(topic is null ? Usage : UsageOf(topic));
            return args.Count == 0 ? ExitUsage : ExitOk;
        }

        if (args[0] == "--version")
        {
            console.Out.WriteLine(typeof(CliApp).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "unknown");
            return ExitOk;
        }

        // What follows '--' is a key or a value even when it reads -h, as ArgumentReader takes it.
        var rest = args.Skip(1).ToArray();
        if (rest.TakeWhile(a => a != "--").Any(a => a is "--help" or "-h"))
        {
            console.Out.WriteLine(UsageOf(args[0]) ?? Usage);
            return ExitOk;
        }

        try
        {
            return args[0] switch
            {
                "key" => KeyCommand.Run(rest, console),
                "node" => Nodes.NodeCommand.Run(rest, console),
                "health" => HealthCommand.Run(rest, console),
                "cube" => Cube.CubeCommand.Run(rest, console),
                "ping" => PingCommand.Run(rest, console),
                "kv" => KeyValueCommand.Run(rest, console),
                "compose" => ComposeCommand.Run(rest, console),
                "sim" => Simulation.SimCommand.Run(rest, console),
                _ => throw new UsageException($"unknown command '{args[0]}'; run 'camcube help' for the list."),
            };
        }
        catch (UsageException ex)
        {
            console.Error.WriteLine($"camcube: {ex.Message}");
            var usage = UsageOf(args[0]);
            if (usage is not null)
            {
                console.Error.WriteLine(usage);
            }

            return ExitUsage;
        }
        catch (CommandFailedException ex)
        {
            console.Error.WriteLine($"camcube {CommandName(args)}: {ex.Message}");
            return ExitFailure;
        }
#pragma warning disable CA1031 // The last resort: a command that fails in a way nobody foresaw still ends with one line, not a stack trace.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            console.Error.WriteLine($"camcube {CommandName(args)}: failed: {FirstLine(ex.Message)} ({ex.GetType().Name})");
            return ExitFailure;
        }
    }

    /// <summary>The command as a user would name it: 'cube up' rather than 'cube'.</summary>
    private static string CommandName(IReadOnlyList<string> args) =>
        args[0] == "cube" && args.Count > 1 && !args[1].StartsWith('-') ? "cube " + args[1] : args[0];

    /// <summary>The first line of an exception's message: the rest (a parameter name, a stack) is for developers.</summary>
    internal static string FirstLine(string message) => message.Split('\n')[0].Trim();

    private static string? UsageOf(string command) => command switch
    {
        "key" => KeyCommand.Usage,
        "node" => Nodes.NodeCommand.Usage,
        "health" => HealthCommand.Usage,
        "cube" => Cube.CubeCommand.Usage,
        "ping" => PingCommand.Usage,
        "kv" => KeyValueCommand.Usage,
        "compose" => ComposeCommand.Usage,
        "sim" => Simulation.SimCommand.Usage,
        _ => null,
    };
}
