using CamCube.Cli.Cube;

namespace CamCube.Cli.Tests;

/// <summary>`camcube cube ...` in process, where no cube runs: the refusals and one-line errors that need no cube.</summary>
[System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
public sealed class CubeCommandTests
{
    private static (int Exit, string Out, string Error) Cube(string stateDirectory, params string[] args) =>
        CliRunner.Run("", ["cube", .. args, "--state-dir", stateDirectory]);

    /// <summary>
    /// `cube up` of one in-process node whose UDP port is taken: a command that gets past the state
    /// directory's checks fails at once (and stops) rather than running a cube.
    /// </summary>
    private static (int Exit, string Out, string Error) UpOnATakenPort(string stateDirectory, string shape = "1x1x1")
    {
        using var squatter = new System.Net.Sockets.Socket(System.Net.Sockets.AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Dgram, System.Net.Sockets.ProtocolType.Udp);
        squatter.Bind(new System.Net.IPEndPoint(System.Net.IPAddress.Loopback, 0));
        var port = ((System.Net.IPEndPoint)squatter.LocalEndPoint!).Port.ToString(System.Globalization.CultureInfo.InvariantCulture);
        return Cube(stateDirectory, "up", "--shape", shape, "--in-process", "--no-memcached", "--no-kv", "--base-port", port);
    }

    private static void AssertOneLine(string error)
    {
        Assert.Single(error.TrimEnd('\n').Split('\n'));
        Assert.DoesNotContain("usage:", error, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", error, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("status")]
    [InlineData("down")]
    public void SaysInOneLineThatNoCubeRunsWhenNothingRuns(string verb)
    {
        using var state = new TemporaryDirectory();
        var (exit, output, error) = Cube(state.Path, verb);
        Assert.Equal(1, exit);
        Assert.Equal("", output);
        Assert.StartsWith($"camcube cube {verb}: no cube is running (nothing answers in {state.Path})", error, StringComparison.Ordinal);
        AssertOneLine(error);
    }

    [Fact]
    public void UpRefusesAStateDirectoryOthersMayWriteWhenItsModeIs0777()
    {
        using var state = new TemporaryDirectory();
        var key = Path.Combine(state.Path, "cluster.key");
        File.WriteAllText(key, "planted");
        File.SetUnixFileMode(state.Path, (UnixFileMode)0b111_111_111);
        var (exit, _, error) = UpOnATakenPort(state.Path);
        Assert.Equal(1, exit);
        Assert.Equal($"camcube cube up: the state directory '{state.Path}' can be written by other users (mode 0777): they could replace the cluster key or a control socket; 'chmod go-w {state.Path}' or choose another.\n", error.ReplaceLineEndings("\n"));
        Assert.Equal("planted", File.ReadAllText(key));
        Assert.Equal(["cluster.key"], Directory.GetFileSystemEntries(state.Path).Select(Path.GetFileName));
    }

    [Fact]
    public void UpRefusesAStateDirectoryOfAnotherUserWhenItsOwnerIsNotThisUser()
    {
        // As root: a directory given to nobody (65534). As anyone else: /, which root owns.
        using var temporary = new TemporaryDirectory();
        var root = UnixFileOwner.EffectiveUserId == 0;
        var directory = root ? temporary.Path : "/";
        if (root)
        {
            Chown(directory, 65_534);
        }

        var (exit, _, error) = UpOnATakenPort(directory);
        Assert.Equal(1, exit);
        Assert.StartsWith($"camcube cube up: the state directory '{directory}' belongs to user id {(root ? 65_534 : 0)}, not to you (user id {UnixFileOwner.EffectiveUserId})", error, StringComparison.Ordinal);
        AssertOneLine(error);
        Assert.Empty(Directory.GetFileSystemEntries(temporary.Path));
    }

    [Fact]
    public void UpRefusesAStateDirectoryThatIsAFile()
    {
        using var temporary = new TemporaryDirectory();
        var file = Path.Combine(temporary.Path, "state");
        File.WriteAllText(file, "");
        var (exit, _, error) = UpOnATakenPort(file);
        Assert.Equal(1, exit);
        Assert.StartsWith($"camcube cube up: the state directory '{file}' is a file, not a directory", error, StringComparison.Ordinal);
        AssertOneLine(error);
    }

    [Fact]
    public void UpRefusesAStateDirectoryUnderProcInOneLine()
    {
        var (exit, _, error) = UpOnATakenPort("/proc/camcube-state");
        Assert.Equal(1, exit);
        Assert.StartsWith("camcube cube up: cannot create the state directory '/proc/camcube-state': ", error, StringComparison.Ordinal);
        AssertOneLine(error);
    }

    [Fact]
    public void UpRefusesAStateDirectoryTooLongForAControlSocket()
    {
        using var temporary = new TemporaryDirectory();
        var directory = Path.Combine(temporary.Path, new string('d', 100));
        var (exit, _, error) = UpOnATakenPort(directory, "3x3x3");
        Assert.Equal(1, exit);
        Assert.StartsWith($"camcube cube up: the state directory '{directory}' is too long: its control socket '{directory}/nodes/node-2-2-2.sock' would be ", error, StringComparison.Ordinal);
        Assert.Contains("a Unix socket path is at most 107", error, StringComparison.Ordinal);
        AssertOneLine(error);
        Assert.False(Directory.Exists(directory));
    }

    [Fact]
    public void DefaultStateDirectoryIsInXdgRuntimeDirWhenThatIsSet()
    {
        var saved = (Environment.GetEnvironmentVariable(CubeLayout.StateDirectoryVariable), Environment.GetEnvironmentVariable("XDG_RUNTIME_DIR"));
        try
        {
            using var runtime = new TemporaryDirectory();
            Environment.SetEnvironmentVariable(CubeLayout.StateDirectoryVariable, null);
            Environment.SetEnvironmentVariable("XDG_RUNTIME_DIR", runtime.Path);
            Assert.Equal(Path.Combine(runtime.Path, "camcube"), CubeLayout.DefaultDirectory());

            // A runtime directory that does not exist (a 'su' session's) is no place to start.
            Environment.SetEnvironmentVariable("XDG_RUNTIME_DIR", Path.Combine(runtime.Path, "gone"));
            Assert.Equal(Path.Combine(Path.GetTempPath(), "camcube-" + Environment.UserName), CubeLayout.DefaultDirectory());
            Environment.SetEnvironmentVariable("XDG_RUNTIME_DIR", null);
            Assert.Equal(Path.Combine(Path.GetTempPath(), "camcube-" + Environment.UserName), CubeLayout.DefaultDirectory());
            Environment.SetEnvironmentVariable(CubeLayout.StateDirectoryVariable, "/srv/cube");
            Assert.Equal("/srv/cube", CubeLayout.DefaultDirectory());
        }
        finally
        {
            Environment.SetEnvironmentVariable(CubeLayout.StateDirectoryVariable, saved.Item1);
            Environment.SetEnvironmentVariable("XDG_RUNTIME_DIR", saved.Item2);
        }
    }

    [Theory]
    [InlineData("cut", "-x")]
    [InlineData("restore", "-z")]
    [InlineData("cut", "+y")]
    public void CutAndRestoreTakeLinkNamesWithoutDoubleDash(string verb, string link)
    {
        // The link parses: the command gets as far as looking for the cube (none runs here).
        using var state = new TemporaryDirectory();
        var (exit, _, error) = Cube(state.Path, verb, "0,0,0", link);
        Assert.Equal(1, exit);
        Assert.StartsWith($"camcube cube {verb}: no cube is running", error, StringComparison.Ordinal);
    }

    [Fact]
    public void CutRefusesSomethingThatIsNotALink()
    {
        using var state = new TemporaryDirectory();
        var (exit, _, error) = Cube(state.Path, "cut", "0,0,0", "up");
        Assert.Equal(2, exit);
        Assert.StartsWith("camcube: cube cut: 'up' is not a link; use +x, -x, +y, -y, +z or -z.", error, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--delay-ms", "1e15", "60000")]
    [InlineData("--drop", "1.5", "1")]
    [InlineData("--reorder", "NaN", "1")]
    public void FaultsOutsideTheirRangeAreUsageErrorsThatNameTheRange(string option, string value, string max)
    {
        using var state = new TemporaryDirectory();
        var (exit, _, error) = Cube(state.Path, "faults", "all", option, value);
        Assert.Equal(2, exit);
        Assert.StartsWith($"camcube: cube faults {option}: '{value}' is not a number from 0 to {max}.", error, StringComparison.Ordinal);
    }

    private static void Chown(string path, int uid)
    {
        using var chown = System.Diagnostics.Process.Start("chown", [uid.ToString(System.Globalization.CultureInfo.InvariantCulture), path])!;
        chown.WaitForExit();
        Assert.Equal(0, chown.ExitCode);
    }
}
