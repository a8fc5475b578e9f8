using System.Text.Json;

namespace CamCube.Cli.Tests;

public class KeyCommandTests
{
    [Fact]
    public void TextOutputListsIdKeyCoordinateAndServers()
    {
        var (exit, output, error) = CliRunner.Run("", "key", "alpha", "--shape", "3x3x3");
        Assert.Equal(0, exit);
        Assert.Equal("", error);
        var keySpace = KeySpace.For(new TorusShape(3, 3, 3));
        var key = Key.FromString("alpha");
        var servers = keySpace.GetServersForKey(key, 3);
        Assert.Equal(
            $"alpha  id={key}  keyCoordinate={keySpace.KeyCoordinateOf(key)}  servers={string.Join(" ", servers)}\n",
            output.ReplaceLineEndings("\n"));
    }

    [Fact]
    public void JsonOutputHasTheDocumentedFieldsAndHonoursFailures()
    {
        var (exit, output, _) = CliRunner.Run("", "key", "alpha", "beta", "--shape", "4x4x4", "--replicas", "5", "--failed", "1,1,1", "--failed", "2,2,2", "--json");
        Assert.Equal(0, exit);
        var lines = output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(2, lines.Length);
        var shape = new TorusShape(4, 4, 4);
        var view = ReachabilityView.WithUnreachable(shape, [new(1, 1, 1), new(2, 2, 2)]);
        foreach (var (line, name) in lines.Zip(new[] { "alpha", "beta" }))
        {
            using var doc = JsonDocument.Parse(line);
            var root = doc.RootElement;
            Assert.Equal(name, root.GetProperty("key").GetString());
            var key = Key.FromString(name);
            Assert.Equal(key.ToString(), root.GetProperty("id").GetString());
            var kc = KeySpace.For(shape).KeyCoordinateOf(key);
            var jkc = root.GetProperty("keyCoordinate");
            Assert.Equal(kc, new KeyCoordinate(jkc.GetProperty("x").GetInt32(), jkc.GetProperty("y").GetInt32(), jkc.GetProperty("z").GetInt32(), jkc.GetProperty("w").GetUInt16()));
            var servers = root.GetProperty("servers").EnumerateArray()
                .Select(s => new Coordinate(s[0].GetInt32(), s[1].GetInt32(), s[2].GetInt32())).ToArray();
            Assert.Equal(KeySpace.For(shape).GetServersForKey(key, 5, view), servers);
            Assert.DoesNotContain(new Coordinate(1, 1, 1), servers);
        }
    }

    [Fact]
    public void HexKeysAreUsedAsIds()
    {
        var id = Key.FromString("x").ToString();
        var (exit, output, _) = CliRunner.Run("", "key", "--hex", id, "--json", "-r", "1");
        Assert.Equal(0, exit);
        using var doc = JsonDocument.Parse(output);
        Assert.Equal(id, doc.RootElement.GetProperty("id").GetString());
    }

    [Fact]
    public void DashReadsKeysFromStandardInput()
    {
        var input = string.Join('\n', Enumerable.Range(0, 500).Select(i => $"k{i}")) + "\n";
        var (exit, output, _) = CliRunner.Run(input, "key", "-", "--json", "--replicas", "1");
        Assert.Equal(0, exit);
        var lines = output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(500, lines.Length);
        using var last = JsonDocument.Parse(lines[^1]);
        Assert.Equal("k499", last.RootElement.GetProperty("key").GetString());
    }

    [Theory]
    [InlineData("is not a torus shape", "key", "a", "--shape", "3by3")]
    [InlineData("each axis must be from 1 to 65536", "key", "a", "--shape", "0x3x3")]
    [InlineData("is outside the torus 3x3x3", "key", "a", "--failed", "3,0,0")]
    [InlineData("is not a coordinate", "key", "a", "--failed", "1,1")]
    [InlineData("is not a whole number from 1", "key", "a", "--replicas", "0")]
    [InlineData("needs a value", "key", "a", "--replicas")]
    [InlineData("unknown option --frobnicate", "key", "a", "--frobnicate")]
    [InlineData("give at least one key", "key")]
    [InlineData("is not a 40-digit hexadecimal id", "key", "--hex", "abc")]
    [InlineData("unknown command 'frob'", "frob")]
    public void BadArgumentsSayWhatWasWrongAndExitTwo(string expected, params string[] args)
    {
        var (exit, output, error) = CliRunner.Run("", args);
        Assert.Equal(2, exit);
        Assert.Equal("", output);
        Assert.Contains(expected, error, StringComparison.Ordinal);
    }

    [Fact]
    public void TwoDimensionalShapeIsAccepted()
    {
        var (exit, output, _) = CliRunner.Run("", "key", "a", "--shape", "5x5", "--json");
        Assert.Equal(0, exit);
        Assert.Contains("\"z\":0", output, StringComparison.Ordinal);
    }

    [Fact]
    public void EveryServerFailedIsAnError()
    {
        var (exit, _, error) = CliRunner.Run("", "key", "a", "--shape", "2x1x1", "--failed", "0,0,0", "--failed", "1,0,0");
        Assert.Equal(2, exit);
        Assert.Contains("every server of 2x1x1 is failed", error, StringComparison.Ordinal);
    }

    [Fact]
    public void RealProcessAnswersBulkKeysFromStandardInput()
    {
        var input = string.Join('\n', Enumerable.Range(0, 5_000).Select(i => $"user:{i}"));
        var (exit, output, error) = CliRunner.RunProcess(input, "key", "-", "--shape", "20x20x20", "--json");
        Assert.True(exit == 0, error);
        var lines = output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(5_000, lines.Length);
        using var doc = JsonDocument.Parse(lines[1234]);
        var expected = KeySpace.For(new TorusShape(20, 20, 20)).GetServersForKey(Key.FromString("user:1234"), 3);
        var first = doc.RootElement.GetProperty("servers")[0];
        Assert.Equal(expected[0], new Coordinate(first[0].GetInt32(), first[1].GetInt32(), first[2].GetInt32()));
    }

    [Fact]
    public void RealProcessHashesTheRawBytesOfKeysFromStandardInputThatAreNotUtf8()
    {
        byte[] first = [(byte)'k', 0xFF, (byte)'1'];
        byte[] second = [(byte)'k', 0xFE, (byte)'1'];
        var (exit, output, error) = CliRunner.RunProcess([.. first, (byte)'\n', .. second, (byte)'\n'], "key", "-", "--json");
        Assert.True(exit == 0, error);
        var ids = output.Split('\n', StringSplitOptions.RemoveEmptyEntries)
            .Select(line =>
            {
                using var doc = JsonDocument.Parse(line);
                return doc.RootElement.GetProperty("id").GetString()!;
            })
            .ToArray();
        Assert.Equal<string[]>([Key.Hash(first).ToString(), Key.Hash(second).ToString()], ids);
    }

    [Fact]
    public void RealProcessExitsNonZeroOnBadArguments()
    {
        var (exit, output, error) = CliRunner.RunProcess("", "key", "a", "--shape", "nope");
        Assert.Equal(2, exit);
        Assert.Equal("", output);
        Assert.Contains("is not a torus shape", error, StringComparison.Ordinal);
    }

    [Fact]
    public void ReplicasBeyondTheMaximumAreAUsageErrorWhenTheShapeIsHuge()
    {
        var (exit, output, error) = CliRunner.Run("", "key", "x", "--shape", "65536x65536x65536", "--replicas", "2147483647");
        Assert.Equal(2, exit);
        Assert.Equal("", output);
        Assert.StartsWith("camcube: option --replicas: '2147483647' is not a whole number from 1 to 100000.", error, StringComparison.Ordinal);
    }

    [Fact]
    public void MostReplicasOfAHugeShapeAreListedWithoutRunningOutOfMemory()
    {
        var (exit, output, error) = CliRunner.Run("", "key", "x", "--shape", "65536x65536x65536", "--replicas", "100000", "--json");
        Assert.True(exit == 0, error);
        using var doc = JsonDocument.Parse(output);
        Assert.Equal(100_000, doc.RootElement.GetProperty("servers").GetArrayLength());
    }

    [Fact]
    public void KeyThatIsNotUtf8IsHashedFromItsRawBytesWhenGivenEscaped()
    {
        // "caf" and the Latin-1 byte 0xE9, as Program.Main recovers it from the command line.
        var raw = new byte[] { 0x63, 0x61, 0x66, 0xE9 };
        var (exit, output, error) = CliRunner.Run("", "key", RawArguments.Decode(raw), "--json");
        Assert.True(exit == 0, error);
        using var doc = JsonDocument.Parse(output);
        Assert.Equal(Key.Hash(raw).ToString(), doc.RootElement.GetProperty("id").GetString());
        Assert.NotEqual(Key.FromString("caf\uFFFD").ToString(), doc.RootElement.GetProperty("id").GetString());
        Assert.Equal("caf\uFFFD", doc.RootElement.GetProperty("key").GetString());
    }

    [Fact]
    public void KeyThatIsNotUtf8IsHashedFromItsRawBytesWhenRunAsAProcess()
    {
        var dll = Path.Combine(AppContext.BaseDirectory, "camcube.dll");
        var start = new System.Diagnostics.ProcessStartInfo("/bin/sh") { RedirectStandardOutput = true, UseShellExecute = false };
        start.ArgumentList.Add("-c");
        start.ArgumentList.Add("exec dotnet \"$0\" key \"$(printf 'caf\\351')\" --json");
        start.ArgumentList.Add(dll);
        using var process = System.Diagnostics.Process.Start(start)!;
        var output = process.StandardOutput.ReadToEnd();
        process.WaitForExit();
        Assert.Equal(0, process.ExitCode);
        using var doc = JsonDocument.Parse(output);
        Assert.Equal(Key.Hash([0x63, 0x61, 0x66, 0xE9]).ToString(), doc.RootElement.GetProperty("id").GetString());
    }
}
