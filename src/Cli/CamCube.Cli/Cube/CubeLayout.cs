using System.Globalization;
using System.Text;

namespace CamCube.Cli.Cube;

/// <summary>
/// Where a cube started by `camcube cube up` keeps its files, so every other `camcube` command
/// finds it without arguments: the state directory (CAMCUBE_STATE_DIR; else camcube in
/// $XDG_RUNTIME_DIR, a directory only the user can enter; else /tmp/camcube-&lt;user&gt;) holds the
/// cluster key, the supervisor's and the nodes' control sockets, a lock file, and logs.
/// </summary>
internal sealed class CubeLayout(string directory)
{
    public const string StateDirectoryVariable = "CAMCUBE_STATE_DIR";

    /// <summary>The longest path a Unix socket can be bound to, in bytes (sun_path is 108 with its terminating zero).</summary>
    public const int SocketPathBytesMax = 107;

    public string Directory { get; } = Path.GetFullPath(directory);

    public string KeyFile => Path.Combine(Directory, "cluster.key");

    public string SupervisorSocket => Path.Combine(Directory, "supervisor.sock");

    /// <summary>Gets the file a running supervisor holds locked, so a second one on this directory is refused.</summary>
    public string LockFile => Path.Combine(Directory, "cube.lock");

    public string LogDirectory => Path.Combine(Directory, "logs");

    /// <summary>Gets where the nodes keep their key-value databases, one per node.</summary>
    public string DataDirectory => Path.Combine(Directory, "data");

    public string SupervisorLog => Path.Combine(LogDirectory, "supervisor.log");

    public static CubeLayout Default(string? stateDirectory = null) => new(stateDirectory ?? DefaultDirectory());

    /// <summary>The state directory when none is given: CAMCUBE_STATE_DIR, else $XDG_RUNTIME_DIR/camcube (when that directory exists), else camcube-&lt;user&gt; in the temporary folder.</summary>
    public static string DefaultDirectory()
    {
        if (Environment.GetEnvironmentVariable(StateDirectoryVariable) is { Length: > 0 } configured)
        {
            return configured;
        }

        // A per-user directory that only the user can enter (systemd's /run/user/<uid>): no one else can pre-create ours.
        return Environment.GetEnvironmentVariable("XDG_RUNTIME_DIR") is { Length: > 0 } runtime && Path.IsPathFullyQualified(runtime) && System.IO.Directory.Exists(runtime)
            ? Path.Combine(runtime, "camcube")
            : Path.Combine(Path.GetTempPath(), "camcube-" + Environment.UserName);
    }

    public string NodeSocket(Coordinate c) => Path.Combine(Directory, "nodes", Name(c) + ".sock");

    public string NodeLog(Coordinate c) => Path.Combine(LogDirectory, Name(c) + ".log");

    /// <summary>The log a detached supervisor writes until it holds the lock (then it becomes <see cref="SupervisorLog"/>).</summary>
    public string StartingLog(string instance) => Path.Combine(LogDirectory, "supervisor-" + instance + ".log");

    /// <summary>Refuses a state directory whose control sockets would have paths too long to bind.</summary>
    /// <exception cref="CommandFailedException">The longest socket path of this shape is over <see cref="SocketPathBytesMax"/> bytes.</exception>
    public void CheckSocketPaths(TorusShape shape)
    {
        var longest = NodeSocket(shape.CoordinateAt(shape.ServerCount - 1));
        var bytes = Encoding.UTF8.GetByteCount(longest);
        if (bytes > SocketPathBytesMax)
        {
            throw new CommandFailedException(
                $"the state directory '{Directory}' is too long: its control socket '{longest}' would be {bytes} bytes, and a Unix socket path is at most {SocketPathBytesMax}; choose a shorter {StateDirectoryVariable} or --state-dir.");
        }
    }

    private static string Name(Coordinate c) => string.Create(CultureInfo.InvariantCulture, $"node-{c.X}-{c.Y}-{c.Z}");
}
