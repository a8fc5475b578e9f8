using System.Globalization;
using System.Text.Json;
using CamCube.Cli.Cube;

namespace CamCube.Integration.Tests;

/// <summary>A small cube of `camcube node` processes in a private state directory of its own, for one lifecycle test; stopped and removed after it.</summary>
internal sealed class LifecycleCube : IDisposable
{
    private static int s_slot;

    public LifecycleCube(string shape = "2x1x1")
    {
        Shape = TorusShape.Parse(shape);
        StateDirectory = Path.Combine("/tmp", "cc-lc-" + Guid.NewGuid().ToString("N")[..8]);

        // Ports of our own, below Linux's ephemeral range and apart from CubeFixture's and CubeUpTests'.
        BasePort = 18_000 + (Environment.ProcessId % 50 * 40) + (Interlocked.Increment(ref s_slot) * 4 % 40);
        Layout = new CubeLayout(StateDirectory);
    }

    public TorusShape Shape { get; }

    public string StateDirectory { get; }

    public int BasePort { get; }

    public CubeLayout Layout { get; }

    public string[] UpArguments(params string[] more) =>
        ["cube", "up", "--shape", Shape.ToString(), "--base-port", BasePort.ToString(CultureInfo.InvariantCulture), "--no-memcached", "--no-kv", .. more];

    public (int Exit, string Out, string Error) Run(params string[] args) => Camcube.Run(StateDirectory, args);

    public (int Exit, string Out, string Error) UpDetached() => Run(UpArguments("--detach"));

    /// <summary>Asks the supervisor for the cube's state (null when none answers).</summary>
    public JsonElement? Supervisor()
    {
        using var answer = RawControl.TryAsk(Layout.SupervisorSocket, "status", TimeSpan.FromSeconds(10));
        return answer?.RootElement.Clone();
    }

    public JsonElement Node(Coordinate node, string request = "status")
    {
        using var answer = RawControl.Ask(Layout.NodeSocket(node), request, TimeSpan.FromSeconds(10));
        return answer.RootElement.Clone();
    }

    /// <summary>The node pids the supervisor reports.</summary>
    public int[] NodePids() =>
        Supervisor()!.Value.GetProperty("nodes").EnumerateArray().Select(n => n.GetProperty("pid").GetInt32()).ToArray();

    public void Dispose()
    {
        if (Supervisor() is not null)
        {
            Run("cube", "down");
        }

        if (Directory.Exists(StateDirectory))
        {
            Directory.Delete(StateDirectory, recursive: true);
        }
    }
}
