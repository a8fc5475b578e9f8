using System.Globalization;
using System.Net;
using System.Net.Sockets;

namespace CamCube.Integration.Tests;

/// <summary>`camcube cube up` in the foreground: the in-process mode, Ctrl-C, and a port that is taken.</summary>
public sealed class CubeUpTests
{
    // Below Linux's ephemeral port range (32768 and up) and apart from CubeFixture's 20000-25999.
    private static int BasePort(int slot) => 26_000 + (Environment.ProcessId % 100 * 60) + (slot * 20 % 60);

    [Fact]
    public async Task InProcessCubeComesUpAnswersAndStopsOnCtrlC()
    {
        var state = Path.Combine(Path.GetTempPath(), "cc-up-" + Environment.ProcessId);
        using var cube = await ForegroundCube.StartAsync(state, ["cube", "up", "--shape", "2x2x2", "--in-process", "--no-memcached", "--no-kv", "--base-port", BasePort(0).ToString(CultureInfo.InvariantCulture)]);

        var (exit, output, error) = Camcube.Run(state, "cube", "status", "--json");
        Assert.True(exit == 0, error);
        Assert.Equal(8, System.Text.Json.JsonDocument.Parse(output).RootElement.GetArrayLength());
        (exit, output, error) = Camcube.Run(state, "ping", "0,0,0", "1,1,1", "--json");
        Assert.True(exit == 0, error);
        Assert.Contains("\"hops\":3", output, StringComparison.Ordinal);

        // Ctrl-C: SIGINT to the supervisor stops every node and exits cleanly.
        await cube.SignalAndWaitAsync("INT");
        Assert.Equal(0, cube.Process.ExitCode);
        Assert.Contains("Stopped.", cube.Lines);

        Assert.NotEqual(0, Camcube.Run(state, "cube", "status").Exit);
    }

    [Fact]
    public void PortInUseIsReportedWithTheNodeAndTheReason()
    {
        var state = Path.Combine(Path.GetTempPath(), "cc-busy-" + Environment.ProcessId);
        var basePort = BasePort(1);
        using var squatter = new Socket(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp);
        squatter.Bind(new IPEndPoint(IPAddress.Loopback, basePort + 3));
        int exit;
        string error;
        try
        {
            (exit, _, error) = Camcube.Run(state, "cube", "up", "--shape", "2x2x1", "--in-process", "--no-memcached", "--no-kv", "--base-port", basePort.ToString(CultureInfo.InvariantCulture));
        }
        finally
        {
            // The refused cube leaves its state directory (lock, logs) behind; one per test run piled up in /tmp.
            if (Directory.Exists(state))
            {
                Directory.Delete(state, recursive: true);
            }
        }

        Assert.Equal(1, exit);
        Assert.Contains("camcube cube up:", error, StringComparison.Ordinal);
        Assert.Contains("(1,1,0)", error, StringComparison.Ordinal);
        Assert.Contains((basePort + 3).ToString(CultureInfo.InvariantCulture), error, StringComparison.Ordinal);
    }

    [Fact]
    public void NodeWithoutAKeyRefusesToStartAndSaysHowToProvideOne()
    {
        var (exit, _, error) = Camcube.Run(Path.GetTempPath(), "node", "--shape", "3x3x3", "--coord", "1,1,1", "--base-port", BasePort(2).ToString(CultureInfo.InvariantCulture));
        Assert.Equal(1, exit);
        Assert.Contains("no cluster key", error, StringComparison.Ordinal);
        Assert.Contains("CAMCUBE_CLUSTER_KEY", error, StringComparison.Ordinal);
    }

    [Fact]
    public void NodeWithABadCoordinateExitsWithOneLineNamingTheSetting()
    {
        var (exit, _, error) = Camcube.Run(Path.GetTempPath(), "node", "--shape", "3x3x3", "--coord", "3,0,0", "--insecure");
        Assert.Equal(1, exit);
        Assert.Equal("camcube node: CamCube:Coordinate: (3,0,0) is outside the torus 3x3x3; x, y, z must be at most 2, 2, 2.\n", error.ReplaceLineEndings("\n"));
    }

    [Fact]
    public void TheNodesLoggingSectionSetsLevelsPerCategoryWhenGiven()
    {
        // Standard input closes at once: the node starts, says so, and stops (--exit-with-stdin).
        string[] node = ["node", "--shape", "1x1x1", "--coord", "0,0,0", "--insecure", "--base-port", (BasePort(2) + 10).ToString(CultureInfo.InvariantCulture), "--exit-with-stdin"];
        var (exit, output, error) = Camcube.Run(Path.GetTempPath(), node);
        Assert.True(exit == 0, error);
        Assert.Contains("Node (0,0,0) of 1x1x1 listening on", output, StringComparison.Ordinal);
        Assert.Contains("Standard input closed", output, StringComparison.Ordinal);

        (exit, output, error) = Camcube.Run(Path.GetTempPath(), [.. node, "--Logging:LogLevel:CamCube.Node=Warning"]);
        Assert.True(exit == 0, error);
        Assert.DoesNotContain("listening on", output, StringComparison.Ordinal);
        Assert.Contains("Standard input closed", output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--CamCube:Colour=blue", "camcube node: CamCube:Colour: unknown setting; the settings of CamCube are Shape, Coordinate,")]
    [InlineData("--CamCube:Seed=seven", "camcube node: CamCube:Seed: 'seven' is not a whole number.")]
    [InlineData("--CamCube:HeartbeatInterval=00:02:00", "camcube node: CamCube:HeartbeatInterval: 00:02:00 is not from 00:00:00.0010000 to 00:01:00.")]
    [InlineData("--base-port=65530", "camcube node: CamCube:BasePort 65530: the 27 servers of 3x3x3 need ports 65530 to 65556, past 65535.")]
    [InlineData("--key-file=/nonexistent/cluster.key", "camcube node: CamCube:KeyFile: '/nonexistent/cluster.key' does not exist.")]
    public void NodeRefusesBadConfigurationWithOneLineNamingTheSettingAndExitCode1(string setting, string start)
    {
        var (exit, output, error) = Camcube.Run(Path.GetTempPath(), "node", "--shape", "3x3x3", "--coord", "1,1,1", "--insecure", setting);
        Assert.Equal(1, exit);
        Assert.Equal("", output);
        Assert.Single(error.TrimEnd('\n').Split('\n'));
        Assert.StartsWith(start, error, StringComparison.Ordinal);
    }
}
