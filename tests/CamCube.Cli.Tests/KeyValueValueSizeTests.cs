using CamCube.Cli.Cube;
using CamCube.Cli.Nodes;
using CamCube.Hosting;
using CamCube.Services.KeyValue;
using Microsoft.Extensions.Configuration;

namespace CamCube.Cli.Tests;

/// <summary>The largest value the store takes on a node (<c>KeyValue:ValueBytesMax</c>, <c>node --kv-value-max</c>) and on every node of a cube (<c>cube up --kv-value-max</c>).</summary>
public sealed class KeyValueValueSizeTests
{
    [Theory]
    [InlineData(null, 8 * 1024)]
    [InlineData("1048576", 1 << 20)]
    [InlineData("1", 1)]
    public void NodeSettingsGiveTheStoreTheLargestValueWhenConfigured(string? configured, int expected)
    {
        var settings = KeyValueNodeSettings.Read(Configuration(configured));

        Assert.Equal(expected, settings.StoreOptions.ValueBytesMax);
        Assert.Equal(KeyValueServiceOptions.Default.Delivery, settings.StoreOptions.Delivery);
    }

    [Theory]
    [InlineData("0")]
    [InlineData("-5")]
    [InlineData("1MB")]
    [InlineData("67043329")]
    public void NodeSettingsRefuseAValueSizeThatIsNotAWholeNumberOfBytesInRangeWithOneLine(string configured)
    {
        var error = Assert.Throws<CamCubeConfigurationException>(() => KeyValueNodeSettings.Read(Configuration(configured)));

        Assert.Equal($"KeyValue:ValueBytesMax: '{configured}' is not a whole number of bytes from 1 to {KeyValueNodeSettings.ValueBytesLimit}.", error.Message);
    }

    [Fact]
    public void CubeUpGivesEveryNodeTheLargestValueWhenAsked()
    {
        var (options, _) = CubeCommand.ReadUp(["--shape", "2x2x2", "--kv-value-max", "4194304"]);
        var layout = new CubeLayout(Path.GetTempPath());

        Assert.Equal(4 << 20, options.KeyValueValueBytesMax);
        foreach (var node in Enumerable.Range(0, 8).Select(i => options.Shape.CoordinateAt(i)))
        {
            Assert.Single(NodeLaunch.Arguments(node, layout, options), "--KeyValue:ValueBytesMax=4194304");
            Assert.Equal(4 << 20, NodeLaunch.KeyValue(node, layout, options).StoreOptions.ValueBytesMax);
        }
    }

    [Fact]
    public void CubeUpRefusesAValueSizeOutOfRangeWithOneLine()
    {
        var error = Assert.Throws<UsageException>(() => CubeCommand.ReadUp(["--shape", "2x2x2", "--kv-value-max", "0"]));

        Assert.Equal($"--kv-value-max: '0' is not a whole number of bytes from 1 to {KeyValueNodeSettings.ValueBytesLimit}.", error.Message);
    }

    [Fact]
    public void NodeCommandLineSetsTheLargestValue()
    {
        var reader = new ArgumentReader("node", ["--shape", "1x1x1", "--coord", "0,0,0", "--kv-value-max", "65536"], NodeArguments.ValueOptions, NodeArguments.FlagOptions);
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(NodeArguments.Settings(reader)).Build();

        Assert.Equal(65536, KeyValueNodeSettings.Read(configuration).StoreOptions.ValueBytesMax);
    }

    private static IConfiguration Configuration(string? valueBytesMax) =>
        new ConfigurationBuilder().AddInMemoryCollection(valueBytesMax is null ? [] : [new KeyValuePair<string, string?>("KeyValue:ValueBytesMax", valueBytesMax)]).Build();
}
