using System.Globalization;

namespace CamCube.Cli.Cube;

/// <summary>
/// Where a cube started by `camcube cube up` keeps its files, so every other `camcube` command
/// finds it without arguments: the state directory (CAMCUBE_STATE_DIR, or camcube-&lt;user&gt; in the
/// temporary folder) holds the cluster key, the supervisor's and the nodes' control sockets, and logs.
/// </summary>
internal sealed class CubeLayout(string directory)
{
    public const string StateDirectoryVariable = "CAMCUBE_STATE_DIR";

    public string Directory { get; } = Path.GetFullPath(directory);

    public string KeyFile => Path.Combine(Directory, "cluster.key");

    public string SupervisorSocket => Path.Combine(Directory, "supervisor.sock");

    public string LogDirectory => Path.Combine(Directory, "logs");

    public static CubeLayout Default(string? stateDirectory = null) =>
        new(stateDirectory
            ?? Environment.GetEnvironmentVariable(StateDirectoryVariable)
            ?? Path.Combine(Path.GetTempPath(), "camcube-" + Environment.UserName));

    public string NodeSocket(Coordinate c) => Path.Combine(Directory, "nodes", Name(c) + ".sock");

    public string NodeLog(Coordinate c) => Path.Combine(LogDirectory, Name(c) + ".log");

    private static string Name(Coordinate c) => string.Create(CultureInfo.InvariantCulture, $"node-{c.X}-{c.Y}-{c.Z}");
}
