using CamCube.Cli.Nodes;
using Microsoft.Extensions.Configuration;

namespace CamCube.Cli.Tests;

public sealed class NodeSettingsReaderTests
{
    [Fact]
    public void TheLoopSpinsForNoTimeUnlessToldTo()
    {
        var settings = NodeSettingsReader.Read(Configuration());
        Assert.Equal(TimeSpan.Zero, settings.LoopIdleSpin);
    }

    [Fact]
    public void LoopSpinIsReadInMicroseconds()
    {
        var settings = NodeSettingsReader.Read(Configuration(("loop-spin-us", "150")));
        Assert.Equal(TimeSpan.FromMicroseconds(150), settings.LoopIdleSpin);
    }

    [Theory]
    [InlineData("loop-spin-us", "-5")]
    [InlineData("loop-spin-us", "2000000")]
    [InlineData("loop-spin-us", "fast")]
    [InlineData("udp-spin-us", "-1")]
    [InlineData("udp-spin-us", "1001")]
    [InlineData("udp-spin-us", "soon")]
    public void ASpinOutOfRangeOrNotANumberIsRefusedByName(string option, string value)
    {
        var ex = Assert.Throws<UsageException>(() => NodeSettingsReader.Read(Configuration((option, value))));
        Assert.Contains("--" + option, ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("")]
    [InlineData("  ")]
    public void BlankPeersAreRefusedWithAUsageErrorWhenGiven(string peers)
    {
        // Found by the fuzzer (tests/CamCube.Fuzz/corpus/node-settings/found-empty-peers): it threw ArgumentException.
        var ex = Assert.Throws<UsageException>(() => NodeSettingsReader.Read(Configuration(("peers", peers))));
        Assert.StartsWith("--peers: empty;", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AControlSocketPathTooLongToBindIsRefusedByName()
    {
        var path = "/tmp/" + new string('s', 120) + ".sock";
        var ex = Assert.Throws<UsageException>(() => NodeSettingsReader.Read(Configuration(("control-socket", path))));
        Assert.Equal($"--control-socket: '{path}' is longer than a Unix socket path may be (107 bytes); choose a shorter path.", ex.Message);
    }

    [Fact]
    public void TheNodeOutlivesItsStandardInputUnlessToldToExitWithIt()
    {
        Assert.False(NodeSettingsReader.Read(Configuration()).ExitWithStdin);
        Assert.True(NodeSettingsReader.Read(Configuration(("exit-with-stdin", "true"))).ExitWithStdin);
    }

    [Fact]
    public void AUdpLoopWatchesItsSocketFiftyMicrosecondsAfterASendUnlessToldOtherwise()
    {
        Assert.Equal(TimeSpan.FromMicroseconds(50), NodeSettingsReader.Read(Configuration()).UdpSpinAfterSend);
        Assert.Equal(TimeSpan.Zero, NodeSettingsReader.Read(Configuration(("udp-spin-us", "0"))).UdpSpinAfterSend);
        Assert.Equal(TimeSpan.FromMicroseconds(1_000), NodeSettingsReader.Read(Configuration(("udp-spin-us", "1000"))).UdpSpinAfterSend);
    }

    [Fact]
    public void UdpSegmentationOffloadIsOnUnlessTheFlagTurnsItOff()
    {
        Assert.True(NodeSettingsReader.Read(Configuration()).UdpSegmentationOffload);
        Assert.False(NodeSettingsReader.Read(Configuration(("no-udp-gso", "true"))).UdpSegmentationOffload);
        Assert.Contains("--no-udp-gso", NodeSettingsReader.FlagOptions);
    }

    [Fact]
    public void TheLoopReadsItsOwnSocketUnlessToldOtherwise()
    {
        Assert.Equal(NodeLoopKind.Udp, NodeSettingsReader.Read(Configuration()).Loop);
        Assert.Equal(NodeLoopKind.Threaded, NodeSettingsReader.Read(Configuration(("loop", "threaded"))).Loop);
        Assert.Equal(NodeLoopKind.Udp, NodeSettingsReader.Read(Configuration(("loop", "udp"))).Loop);
    }

    [Fact]
    public void AnUnknownLoopIsRefusedByName()
    {
        var ex = Assert.Throws<UsageException>(() => NodeSettingsReader.Read(Configuration(("loop", "fast"))));
        Assert.Contains("--loop", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void SpinningIsRefusedForTheLoopThatReadsItsSocket()
    {
        var ex = Assert.Throws<UsageException>(() => NodeSettingsReader.Read(Configuration(("loop", "udp"), ("loop-spin-us", "10"))));
        Assert.Contains("--loop-spin-us", ex.Message, StringComparison.Ordinal);
        Assert.Equal(NodeLoopKind.Threaded, NodeSettingsReader.Read(Configuration(("loop-spin-us", "10"))).Loop);
    }

    private static IConfiguration Configuration(params (string Key, string Value)[] extra)
    {
        var values = new Dictionary<string, string?> { ["shape"] = "3x3x3", ["coord"] = "1,1,1", ["insecure"] = "true" };
        foreach (var (key, value) in extra)
        {
            values[key] = value;
        }

        return new ConfigurationBuilder().AddInMemoryCollection(values).Build();
    }
}
