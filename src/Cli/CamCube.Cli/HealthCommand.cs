using CamCube.Hosting.Health;

namespace CamCube.Cli;

/// <summary>`camcube health`: asks the node of this container (its control socket) for its health, for compose's and Kubernetes' probes.</summary>
internal static class HealthCommand
{
    public const string Usage = """
        usage: camcube health [--control-socket PATH]

        Asks a running node for its health checks (links up, servers reachable, event loop responsive)
        and prints one line. Exit code 0 while the node is healthy or degraded (a neighbour is down and
        routing goes around it), 1 when it is unhealthy or does not answer. The socket is --control-socket,
        else the node's own setting from the environment (CAMCUBE__CONTROLSOCKET or CAMCUBE_CONTROL_SOCKET).
        In a cube started by 'camcube cube up', use 'camcube cube health x,y,z'.
        """;

    public static int Run(IReadOnlyList<string> args, CliConsole console)
    {
        var reader = new ArgumentReader("health", args, ["--control-socket"], []);
        if (reader.Positional.Count > 0)
        {
            throw new UsageException($"health: unexpected argument '{reader.Positional[0]}'.");
        }

        var socket = reader.Single("--control-socket")
            ?? Environment.GetEnvironmentVariable("CAMCUBE__CONTROLSOCKET")
            ?? Environment.GetEnvironmentVariable("CAMCUBE_CONTROL_SOCKET")
            ?? throw new UsageException("health: no control socket; give --control-socket PATH or set CAMCUBE__CONTROLSOCKET.");
        var exit = CamCubeHealthProbe.AskAsync(socket, console.Out).GetAwaiter().GetResult();
        console.Out.Flush();
        return exit;
    }
}
