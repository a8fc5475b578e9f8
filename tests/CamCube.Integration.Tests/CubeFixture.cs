using System.Globalization;
using System.Text.Json;
using CamCube.Cli.Cube;

namespace CamCube.Integration.Tests;

/// <summary>A 3x3x3 cube of 27 real `camcube node` processes on loopback, started detached for a test class and stopped after it.</summary>
public sealed class CubeFixture : IDisposable
{
    public static readonly TorusShape Shape = new(3, 3, 3);

    private static readonly string[] s_links = ["+x", "-x", "+y", "-y", "+z", "-z"];

    public CubeFixture()
    {
        StateDirectory = Path.Combine(Path.GetTempPath(), "cc-it-" + Environment.ProcessId + "-" + Guid.NewGuid().ToString("N")[..6]);
        if (Directory.Exists(StateDirectory))
        {
            Directory.Delete(StateDirectory, recursive: true);
        }

        // Ports of our own, below Linux's ephemeral range (32768 and up), where the kernel hands
        // out ports to outgoing connections and would collide with a fixed choice now and then.
        BasePort = 20_000 + (Environment.ProcessId % 100 * 60);
        MemcachedBasePort = BasePort - 10_000;

        // The store's front-ends on the TCP ports of the same numbers as the nodes' UDP ports: ours alone too.
        KeyValueBasePort = BasePort;
        var (exit, output, error) = Camcube.Run(
            StateDirectory,
            "cube",
            "up",
            "--detach",
            "--base-port",
            BasePort.ToString(System.Globalization.CultureInfo.InvariantCulture),
            "--memcached-port",
            MemcachedBasePort.ToString(System.Globalization.CultureInfo.InvariantCulture),
            "--kv-port",
            KeyValueBasePort.ToString(System.Globalization.CultureInfo.InvariantCulture));
        if (exit != 0)
        {
            throw new InvalidOperationException($"cube up failed ({exit}): {output} {error}");
        }

        Layout = new CubeLayout(StateDirectory);
    }

    public string StateDirectory { get; }

    public int BasePort { get; }

    /// <summary>Gets the memcached port of node (0,0,0); node i listens on this + i.</summary>
    public int MemcachedBasePort { get; }

    public int MemcachedPort(Coordinate node) => MemcachedBasePort + (int)Shape.IndexOf(node);

    /// <summary>Gets the key-value front-end port of node (0,0,0); node i listens on this + i.</summary>
    public int KeyValueBasePort { get; }

    public int KeyValuePort(Coordinate node) => KeyValueBasePort + (int)Shape.IndexOf(node);

    internal CubeLayout Layout { get; }

    public JsonElement Ask(Coordinate node, string request, int timeoutSeconds = 30)
    {
        using var answer = RawControl.Ask(Layout.NodeSocket(node), request, TimeSpan.FromSeconds(timeoutSeconds));
        return answer.RootElement.Clone();
    }

    /// <summary>Has every node drop this share of the frames it receives (<c>cube faults all --drop</c>; "0" ends it).</summary>
    public void DropEverywhere(string probability)
    {
        var (exit, output, error) = Camcube.Run(StateDirectory, "cube", "faults", "all", "--drop", probability);
        Assert.True(exit == 0, $"cube faults all --drop {probability}: {output}{error}");
    }

    /// <summary>
    /// Cuts all six cables of <paramref name="node"/> (<c>cube cut</c>), runs <paramref name="whileCutOff"/>,
    /// and restores them (<c>cube restore</c>) whatever it did; the node keeps running meanwhile.
    /// </summary>
    public void CutOffWhile(Coordinate node, Action whileCutOff)
    {
        ArgumentNullException.ThrowIfNull(whileCutOff);
        var name = string.Create(CultureInfo.InvariantCulture, $"{node.X},{node.Y},{node.Z}");
        try
        {
            foreach (var link in s_links)
            {
                var (exit, output, error) = Camcube.Run(StateDirectory, "cube", "cut", name, link);
                Assert.True(exit == 0, $"cube cut {name} {link}: {output}{error}");
            }

            whileCutOff();
        }
        finally
        {
            foreach (var link in s_links)
            {
                Camcube.Run(StateDirectory, "cube", "restore", name, link);
            }
        }
    }

    /// <summary>Polls a condition on the cube (over its control sockets) until it holds or the timeout passes.</summary>
    public bool WaitFor(Func<bool> condition, TimeSpan timeout) => Wait.Until(condition, timeout);

    /// <summary>Stops the cube and deletes its state directory, unless CC_IT_KEEP_STATE is set (its node logs and stores are kept for a look after a failure).</summary>
    public void Dispose()
    {
        Camcube.Run(StateDirectory, "cube", "down");
        if (Directory.Exists(StateDirectory) && Environment.GetEnvironmentVariable("CC_IT_KEEP_STATE") is null)
        {
            Directory.Delete(StateDirectory, recursive: true);
        }
    }
}
