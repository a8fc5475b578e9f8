using CamCube.Cli.Cube;
using CamCube.Cli.Nodes;
using CamCube.Services.KeyValue;
using Microsoft.Extensions.Configuration;

namespace CamCube.Cli.Tests;

/// <summary>
/// t, how long the store waits before it restores r copies of an unreachable server's keys
/// (camcubeos 5.2: 180 s by default), on a node (<c>KeyValue:ReReplicationDelay</c>, <c>node
/// --kv-rereplication-delay-s</c>) and on every node of a cube (<c>cube up --kv-rereplication-delay-s</c>).
/// </summary>
public sealed class KeyValueReReplicationDelayTests
{
    [Fact]
    public void NodeStoreWaits180SecondsWhenNothingIsConfigured()
    {
        var settings = KeyValueNodeSettings.Read(Configuration(("KeyValue:Storage", "memory")));

        Assert.Equal(TimeSpan.FromSeconds(180), KeyValueServiceOptions.Default.ReReplicationDelay);
        Assert.Null(settings.ReReplicationDelay);
        Assert.Equal(TimeSpan.FromSeconds(180), StoreOf(settings).Options.ReReplicationDelay);
    }

    [Theory]
    [InlineData("00:00:42", 42)]
    [InlineData("00:10:00", 600)]
    [InlineData("23:59:59", 86_399)]
    public void NodeStoreServiceWaitsTheConfiguredDelayWhenOneIsConfigured(string configured, int seconds)
    {
        var settings = KeyValueNodeSettings.Read(Configuration(("KeyValue:Storage", "memory"), ("KeyValue:ReReplicationDelay", configured)));

        Assert.Equal(TimeSpan.FromSeconds(seconds), StoreOf(settings).Options.ReReplicationDelay);
        Assert.Equal(KeyValueServiceOptions.Default.ValueBytesMax, StoreOf(settings).Options.ValueBytesMax);
    }

    [Theory]
    [InlineData("0")]
    [InlineData("00:00:00")]
    [InlineData("-00:00:05")]
    [InlineData("1.00:00:00")]
    [InlineData("180")]
    [InlineData("soon")]
    public void NodeSettingsRefuseADelayThatIsNotAboveZeroAndBelowADayWithOneLineNamingTheSetting(string configured)
    {
        var error = Assert.Throws<Hosting.CamCubeConfigurationException>(() => KeyValueNodeSettings.Read(Configuration(("KeyValue:ReReplicationDelay", configured))));

        Assert.Equal($"KeyValue:ReReplicationDelay: '{configured}' is not a duration above 0 and below 24 hours (the tombstone lifetime), such as 00:03:00 (hours:minutes:seconds).", error.Message);
    }

    [Fact]
    public void NodeCommandLineSetsTheDelayInSeconds()
    {
        var reader = new ArgumentReader("node", ["--shape", "1x1x1", "--coord", "0,0,0", "--kv-rereplication-delay-s", "42"], NodeArguments.ValueOptions, NodeArguments.FlagOptions);
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(NodeArguments.Settings(reader)).Build();

        Assert.Equal(TimeSpan.FromSeconds(42), KeyValueNodeSettings.Read(configuration).StoreOptions.ReReplicationDelay);
    }

    [Fact]
    public void NodeCommandLineRefusesANegativeDelayWithTheSettingsMessage()
    {
        Assert.Equal(
            "KeyValue:ReReplicationDelay: '-00:00:05' is not a duration above 0 and below 24 hours (the tombstone lifetime), such as 00:03:00 (hours:minutes:seconds).",
            ArgumentCheck.Node(["--shape", "1x1x1", "--coord", "0,0,0", "--insecure", "--kv-rereplication-delay-s", "-5"]));
    }

    [Fact]
    public void CubeUpGivesEveryNodeTheDelayWhenAskedAndNothingOtherwise()
    {
        var layout = new CubeLayout(Path.GetTempPath());
        var (asked, _) = CubeCommand.ReadUp(["--shape", "2x2x2", "--kv-rereplication-delay-s", "30"]);
        var (notAsked, _) = CubeCommand.ReadUp(["--shape", "2x2x2"]);

        Assert.Equal(TimeSpan.FromSeconds(30), asked.KeyValueReReplicationDelay);
        Assert.Null(notAsked.KeyValueReReplicationDelay);
        foreach (var node in Enumerable.Range(0, 8).Select(i => asked.Shape.CoordinateAt(i)))
        {
            Assert.Single(NodeLaunch.Arguments(node, layout, asked), "--KeyValue:ReReplicationDelay=00:00:30");
            Assert.Equal(TimeSpan.FromSeconds(30), NodeLaunch.KeyValue(node, layout, asked).StoreOptions.ReReplicationDelay);
            Assert.DoesNotContain(NodeLaunch.Arguments(node, layout, notAsked), argument => argument.StartsWith("--KeyValue:ReReplicationDelay", StringComparison.Ordinal));
            Assert.Equal(TimeSpan.FromSeconds(180), NodeLaunch.KeyValue(node, layout, notAsked).StoreOptions.ReReplicationDelay);
        }
    }

    [Theory]
    [InlineData("0")]
    [InlineData("86400")]
    [InlineData("3m")]
    public void CubeUpRefusesADelayOutOfRangeWithOneLine(string seconds)
    {
        var error = Assert.Throws<UsageException>(() => CubeCommand.ReadUp(["--shape", "2x2x2", "--kv-rereplication-delay-s", seconds]));

        Assert.Equal($"option --kv-rereplication-delay-s: '{seconds}' is not a whole number from 1 to 86399.", error.Message);
    }

    /// <summary>The store service the node's settings build, as `cube up --in-process` and `camcube node` register it.</summary>
    private static KeyValueService StoreOf(KeyValueNodeSettings settings) =>
        ReferenceServices.CreateParts(memcached: null, settings, "0-0-0").Services.OfType<KeyValueService>().Single();

    private static IConfiguration Configuration(params (string Name, string Value)[] settings) =>
        new ConfigurationBuilder().AddInMemoryCollection(settings.Select(s => new KeyValuePair<string, string?>(s.Name, s.Value))).Build();
}
