using System.Text.Json;
using CamCube.Experiments;

namespace CamCube.Cli.Tests;

public class SimCommandTests
{
    [Fact]
    public void AllToAllWritesJsonWithTheDocumentedFieldsAndAFigure()
    {
        var json = Path.Combine(Path.GetTempPath(), $"sim-{Environment.ProcessId}.json");
        var svg = Path.ChangeExtension(json, ".svg");
        var (exit, output, error) = CliRunner.Run("", "sim", "all-to-all", "--shape", "3x3x3", "--duration", "1ms", "--seed", "7", "--out", json, "--svg", svg);
        Assert.True(exit == 0, error);
        Assert.Contains("median Gbps/server", output, StringComparison.Ordinal);
        using var doc = JsonDocument.Parse(File.ReadAllText(json));
        var r = doc.RootElement;
        Assert.Equal("all-to-all", r.GetProperty("experiment").GetString());
        Assert.Equal("3x3x3", r.GetProperty("shape").GetString());
        Assert.Equal(7, r.GetProperty("seed").GetInt32());
        Assert.Matches("^[0-9a-f]+$", r.GetProperty("traceHash").GetString()!);
        Assert.True(r.GetProperty("events").GetInt64() > 0);
        Assert.True(r.GetProperty("medianGbpsPerServer").GetDouble() > 0);
        Assert.True(r.GetProperty("expectedGbpsPerServer").GetDouble() > 0);
        Assert.StartsWith("<svg", File.ReadAllText(svg), StringComparison.Ordinal);
    }

    [Fact]
    public void SameSeedGivesTheSameTraceHash()
    {
        string Hash()
        {
            var path = Path.Combine(Path.GetTempPath(), $"sim-{Guid.NewGuid():N}.json");
            Assert.Equal(0, CliRunner.Run("", "sim", "all-to-all", "--shape", "2x2x2", "--duration", "1ms", "--out", path).Exit);
            using var doc = JsonDocument.Parse(File.ReadAllText(path));
            return doc.RootElement.GetProperty("traceHash").GetString()!;
        }

        Assert.Equal(Hash(), Hash());
    }

    [Theory]
    [InlineData("name one experiment", "sim")]
    [InlineData("unknown experiment 'fast'", "sim", "fast")]
    [InlineData("not a positive duration", "sim", "churn", "--duration", "soon")]
    [InlineData("runs up to 8000", "sim", "all-to-all", "--shape", "21x20x20")]
    [InlineData("is not a number from 0 to 0.9", "sim", "churn", "--failed-fraction", "2")]
    public void BadArgumentsSayWhatWasWrong(string expected, params string[] args)
    {
        var (exit, _, error) = CliRunner.Run("", args);
        Assert.Equal(2, exit);
        Assert.Contains(expected, error, StringComparison.Ordinal);
    }

    [Fact]
    public void DurationBeyondTheSimulatorsLimitIsAUsageErrorWhenHuge()
    {
        var (exit, output, error) = CliRunner.Run("", "sim", "churn", "--duration", "99999999999999m");
        Assert.Equal(2, exit);
        Assert.Equal("", output);
        Assert.StartsWith("camcube: --duration: '99999999999999m' is longer than the simulator runs (24 hours of virtual time).", error, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--out")]
    [InlineData("--svg")]
    public void UnwritableOutputFailsBeforeTheRunWhenItsFolderDoesNotExist(string option)
    {
        var path = Path.Combine(Path.GetTempPath(), "no-such-folder-" + Guid.NewGuid().ToString("N"), "result");
        var (exit, output, error) = CliRunner.Run("", "sim", "all-to-all", "--shape", "3x3x3", "--duration", "1ms", option, path);
        Assert.Equal(1, exit);

        // No result table: the run never started.
        Assert.Equal("", output);
        Assert.StartsWith($"camcube sim: {option}: cannot write '{path}': ", error, StringComparison.Ordinal);
        Assert.Single(error.TrimEnd('\n').Split('\n'));
    }

    [Fact]
    public void SimHotspotWritesTheExperimentsResultAsJsonAndACdfFigure()
    {
        var json = Path.Combine(Path.GetTempPath(), $"hotspot-{Guid.NewGuid():N}.json");
        var svg = Path.ChangeExtension(json, ".svg");
        var (exit, output, error) = CliRunner.Run("", "sim", "hotspot", "--shape", "4x4x4", "--items", "300", "--lookups", "400", "--k", "4", "--seed", "3", "--out", json, "--svg", svg);
        Assert.True(exit == 0, error);
        Assert.Contains("hot spot (k 4)", output, StringComparison.Ordinal);

        // The JSON holds what the experiment measures for the same options, field for field.
        var expected = HotSpotExperiment.Run(new HotSpotOptions { Shape = new(4, 4, 4), Items = 300, Lookups = 400, K = 4, Seed = 3 });
        var text = File.ReadAllText(json);
        var written = JsonSerializer.Deserialize<HotSpotResult>(text, JsonSerializerOptions.Web)!;
        Assert.Equal(("hotspot", "4x4x4", 3, expected.TraceHash), (written.Experiment, written.Shape, written.Seed, written.TraceHash));
        Assert.Equal((0, 4, 400), (written.Base.K, written.HotSpot.K, written.HotSpot.Hits));
        Assert.Equal(expected.Base.HopsHistogram, written.Base.HopsHistogram);
        Assert.Equal(expected.HotSpot.HopsCdf, written.HotSpot.HopsCdf);
        Assert.Equal(expected.HotSpot.MedianHops, written.HotSpot.MedianHops);
        Assert.DoesNotContain("hopsPerLookup", text, StringComparison.Ordinal);
        var figure = File.ReadAllText(svg);
        Assert.StartsWith("<svg", figure, StringComparison.Ordinal);
        Assert.Equal(2, figure.Split("<polyline", StringSplitOptions.None).Length - 1);
        File.Delete(json);
        File.Delete(svg);
    }

    [Theory]
    [InlineData("--k: '65' is not a whole number from 0 to 64", "--k", "65")]
    [InlineData("--items: '0' is not a whole number", "--items", "0")]
    public void BadHotspotArgumentsSayWhatWasWrong(string expected, params string[] options)
    {
        var (exit, _, error) = CliRunner.Run("", ["sim", "hotspot", "--shape", "2x2x2", .. options]);
        Assert.Equal(2, exit);
        Assert.Contains(expected, error, StringComparison.Ordinal);
    }
}
