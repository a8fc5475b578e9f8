using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;

namespace CamCube.Integration.Tests;

/// <summary>
/// The cube's lifecycle tried as an adversarial user would, each test on a small cube of node
/// processes in a private state directory: a dead supervisor, a second and a concurrent `cube up`,
/// stray nodes, a key file someone else made, a node that cannot start, and a closed terminal.
/// </summary>
[Collection(LifecycleCubes.Name)]
[System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
public sealed class CubeLifecycleTests
{
    private static readonly TimeSpan s_patience = TimeSpan.FromSeconds(30);

    private static void AssertOneLine(string error)
    {
        Assert.Single(error.TrimEnd('\n').Split('\n'));
        Assert.DoesNotContain("   at ", error, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void DetachedUpStartsTheCubeInTheStateDirectoryTheOptionNames(bool withEquals)
    {
        using var cube = new LifecycleCube();
        var (exit, _, error) = cube.Run(cube.UpArguments(withEquals ? ["--detach", $"--state-dir={cube.StateDirectory}"] : ["--detach", "--state-dir", cube.StateDirectory]));

        // It was refused with the supervisor's last line of usage: --state-dir reached it twice.
        Assert.True(exit == 0, error);
        Assert.Equal(2, cube.NodePids().Length);
    }

    [Fact]
    public void NodesStopWhenTheirSupervisorIsKilledAndTheNextCubeRunsItsOwnNodes()
    {
        using var cube = new LifecycleCube();
        var (exit, _, error) = cube.UpDetached();
        Assert.True(exit == 0, error);
        var supervisor = cube.Supervisor()!.Value.GetProperty("supervisorPid").GetInt32();
        var nodes = cube.NodePids();
        Assert.Equal(2, nodes.Length);

        using (var process = Process.GetProcessById(supervisor))
        {
            process.Kill(); // SIGKILL: no clean-up of any kind
        }

        Assert.True(Wait.Until(() => !nodes.Any(Wait.IsAlive), s_patience), $"nodes {string.Join(", ", nodes.Where(Wait.IsAlive))} outlived their supervisor");

        (exit, _, error) = cube.UpDetached();
        Assert.True(exit == 0, error);
        var fresh = cube.NodePids();
        Assert.Empty(fresh.Intersect(nodes));
        Assert.Equal(fresh[0], cube.Node(new Coordinate(0, 0, 0)).GetProperty("pid").GetInt32());
        Assert.Equal(fresh[1], cube.Node(new Coordinate(1, 0, 0)).GetProperty("pid").GetInt32());
    }

    [Fact]
    public void RefusedSecondUpTouchesNeitherTheKeyNorTheLogOfTheRunningCube()
    {
        using var cube = new LifecycleCube();
        Assert.Equal(0, cube.UpDetached().Exit);
        var key = File.ReadAllBytes(cube.Layout.KeyFile);
        var log = File.ReadAllBytes(Path.Combine(cube.Layout.LogDirectory, "supervisor.log"));
        var logs = Directory.GetFiles(cube.Layout.LogDirectory).Order(StringComparer.Ordinal).ToArray();

        foreach (var up in new[] { cube.UpArguments("--detach"), cube.UpArguments(), cube.UpArguments("--in-process") })
        {
            var (exit, _, error) = cube.Run(up);
            Assert.Equal(1, exit);
            Assert.Contains("a cube is already running", error, StringComparison.Ordinal);
            AssertOneLine(error);
        }

        Assert.Equal(key, File.ReadAllBytes(cube.Layout.KeyFile));
        Assert.Equal(log, File.ReadAllBytes(Path.Combine(cube.Layout.LogDirectory, "supervisor.log")));
        Assert.Equal(logs, Directory.GetFiles(cube.Layout.LogDirectory).Order(StringComparer.Ordinal).ToArray());

        // The running cube still works: a killed node starts again with the key it had.
        Assert.Equal(0, cube.Run("cube", "kill", "1,0,0").Exit);
        var (started, output, startError) = cube.Run("cube", "start", "1,0,0");
        Assert.True(started == 0, startError);
        Assert.Equal("started node (1,0,0)\n", output.ReplaceLineEndings("\n"));
    }

    [Fact]
    public async Task ThreeUpsAtOnceOnOneStateDirectoryStartOneCube()
    {
        using var cube = new LifecycleCube();
        var ups = await Task.WhenAll(Enumerable.Range(0, 3).Select(_ => Task.Run(cube.UpDetached)));
        var results = ups.OrderBy(r => r.Exit).ToArray();
        Assert.True(results[0].Exit == 0, results[0].Error);
        foreach (var refused in results[1..])
        {
            Assert.Equal(1, refused.Exit);
            Assert.StartsWith("camcube cube up: ", refused.Error, StringComparison.Ordinal);
            Assert.Contains("already running", refused.Error, StringComparison.Ordinal);
            AssertOneLine(refused.Error);
        }

        // One supervisor, its own two nodes, and no other process of this state directory anywhere.
        var nodes = cube.NodePids();
        Assert.Equal(2, nodes.Length);
        Assert.All(nodes, pid => Assert.True(Wait.IsAlive(pid)));
        var supervisor = cube.Supervisor()!.Value.GetProperty("supervisorPid").GetInt32();
        Assert.Equal(nodes.Append(supervisor).Order(), Wait.ProcessesMentioning(cube.StateDirectory).Order());
        Assert.Equal(["supervisor.log", "node-0-0-0.log", "node-1-0-0.log"], Directory.GetFiles(cube.Layout.LogDirectory).Select(Path.GetFileName).OrderBy(n => n == "supervisor.log" ? 0 : 1).ThenBy(n => n, StringComparer.Ordinal));
    }

    [Fact]
    public void KeyFileIsNewAndOwnerOnlyWhenAWorldReadableOneWasThere()
    {
        using var cube = new LifecycleCube();
        Directory.CreateDirectory(cube.StateDirectory, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        File.WriteAllText(cube.Layout.KeyFile, "planted");
        File.SetUnixFileMode(cube.Layout.KeyFile, (UnixFileMode)0b110_110_110);

        var (exit, _, error) = cube.UpDetached();
        Assert.True(exit == 0, error);
        const UnixFileMode OwnerOnly = UnixFileMode.UserRead | UnixFileMode.UserWrite;
        Assert.Equal(OwnerOnly, File.GetUnixFileMode(cube.Layout.KeyFile));
        Assert.Matches("^[0-9a-f]{64}$", File.ReadAllText(cube.Layout.KeyFile));
        Assert.Equal(OwnerOnly, File.GetUnixFileMode(cube.Layout.SupervisorSocket));
        Assert.Equal(OwnerOnly, File.GetUnixFileMode(cube.Layout.NodeSocket(new Coordinate(0, 0, 0))));
        Assert.Equal(OwnerOnly, File.GetUnixFileMode(cube.Layout.NodeSocket(new Coordinate(1, 0, 0))));
    }

    [Fact]
    public void StrayNodeOfAnEarlierCubeIsNamedAndRefusedWhenItStillAnswers()
    {
        using var cube = new LifecycleCube("1x1x1");
        Directory.CreateDirectory(Path.Combine(cube.StateDirectory, "nodes"), UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var arg in new[] { Path.Combine(AppContext.BaseDirectory, "camcube.dll"), "node", "--shape", "1x1x1", "--coord", "0,0,0", "--insecure", "--base-port", (cube.BasePort + 2).ToString(CultureInfo.InvariantCulture), "--control-socket", cube.Layout.NodeSocket(new Coordinate(0, 0, 0)) })
        {
            start.ArgumentList.Add(arg);
        }

        using var stray = Process.Start(start)!;
        try
        {
            Assert.True(Wait.Until(() => File.Exists(cube.Layout.NodeSocket(new Coordinate(0, 0, 0))), s_patience));
            var (exit, _, error) = cube.UpDetached();
            Assert.Equal(1, exit);
            Assert.Contains($"1 nodes of an earlier cube still answer in {cube.StateDirectory} without a supervisor, for example 0,0,0 (pid {stray.Id})", error, StringComparison.Ordinal);
            AssertOneLine(error);
            Assert.Null(cube.Supervisor());
        }
        finally
        {
            stray.Kill();
            stray.WaitForExit();
        }
    }

    [Fact]
    public void NodeThatCannotStartIsQuotedInOneLineWhenItsPortIsTaken()
    {
        using var cube = new LifecycleCube();
        using var squatter = new Socket(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp);
        squatter.Bind(new IPEndPoint(IPAddress.Loopback, cube.BasePort + 1));
        var (exit, _, error) = cube.UpDetached();
        Assert.Equal(1, exit);
        Assert.StartsWith($"camcube cube up: the cube did not start: node (1,0,0) exited while starting: camcube node: node (1,0,0): Node (1,0,0) cannot bind UDP 127.0.0.1:{cube.BasePort + 1}", error, StringComparison.Ordinal);
        AssertOneLine(error);
    }

    [Fact]
    public void NodeWithAKeyFileOfFiveBytesSaysSoInOneLine()
    {
        using var cube = new LifecycleCube("1x1x1");
        Directory.CreateDirectory(cube.StateDirectory);
        var key = Path.Combine(cube.StateDirectory, "five.key");
        File.WriteAllText(key, "abcde");
        var (exit, output, error) = cube.Run("node", "--shape", "1x1x1", "--coord", "0,0,0", "--key-file", key, "--base-port", cube.BasePort.ToString(CultureInfo.InvariantCulture));
        Assert.Equal(1, exit);
        Assert.Equal("", output);
        Assert.StartsWith($"camcube node: The cluster key file '{key}' holds 5 bytes that are neither 32 raw bytes nor 64 hexadecimal characters", error, StringComparison.Ordinal);
        AssertOneLine(error);
    }

    [Fact]
    public async Task ClosedTerminalStopsAForegroundCubeAndItsNodes()
    {
        using var cube = new LifecycleCube();
        using var foreground = await ForegroundCube.StartAsync(cube.StateDirectory, cube.UpArguments());
        var nodes = cube.NodePids();

        // What a closed terminal sends.
        await foreground.SignalAndWaitAsync("HUP");
        Assert.Equal(0, foreground.Process.ExitCode);
        Assert.Contains("Stopped.", foreground.Lines);
        Assert.DoesNotContain(nodes, Wait.IsAlive);
        Assert.False(File.Exists(cube.Layout.KeyFile));
    }

    [Fact]
    public void StoreTakesValuesUpToTheSizeCubeUpGaveItsNodesAndRefusesALargerOneAndKeepsServing()
    {
        using var cube = new LifecycleCube();
        var kvPort = cube.BasePort + 2;
        var (exit, _, error) = cube.Run("cube", "up", "--shape", cube.Shape.ToString(), "--base-port", cube.BasePort.ToString(CultureInfo.InvariantCulture), "--no-memcached",
            "--kv-port", kvPort.ToString(CultureInfo.InvariantCulture), "--kv-value-max", "1048576", "--detach");
        Assert.True(exit == 0, error);

        // 900,000 bytes: over the store's default (8 KiB), under what this cube's nodes were given.
        var big = new string('v', 900_000);
        using var client = new MemcachedTextClient(kvPort);
        Assert.Equal("STORED", client.Command("set big 0 0 900000", big));
        Assert.Equal(big, client.Get("get", "big")?.Data);

        var tooBig = new string('w', 1_048_577);
        Assert.Equal("SERVER_ERROR object too large for cache", client.Command("set big 0 0 1048577", tooBig));
        Assert.Equal(big, client.Get("get", "big")?.Data);
    }
}
