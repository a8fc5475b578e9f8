using Microsoft.Extensions.Configuration;

namespace CamCube.Hosting.Tests;

/// <summary>The options of a node as a host binds and checks them: defaults stated once, durations as TimeSpans, one line naming each bad setting.</summary>
public sealed class CamCubeNodeOptionsTests
{
    [Fact]
    public void DefaultsAreTheRuntimesWhenNothingIsSet()
    {
        var options = Bind();
        Assert.Equal(TimeSpan.FromMilliseconds(100), options.HeartbeatInterval);
        Assert.Equal(TimeSpan.FromMilliseconds(350), options.EffectiveHeartbeatTimeout);
        Assert.Equal(1, options.Seed);
        Assert.Equal(TimeSpan.Zero, options.LoopIdleSpin);
        Assert.Equal(TimeSpan.FromMicroseconds(50), options.UdpSpinAfterSend);
        Assert.True(options.UdpSegmentationOffload);
        Assert.False(options.ExitWithStdin);
        Assert.Equal(NodeLoopKind.Udp, options.EffectiveLoop);
        Assert.Equal(65_536, options.PostedItemsMax);
        Assert.Equal(1_000, options.DropNoticesPerSecondMax);
    }

    [Fact]
    public void TheTimeoutFollowsTheIntervalWhenOnlyTheIntervalIsSet()
    {
        var options = Bind(("HeartbeatInterval", "00:00:00.200"));
        Assert.Equal(TimeSpan.FromMilliseconds(700), options.EffectiveHeartbeatTimeout);
        options.Validate();
    }

    [Fact]
    public void DurationsAreReadAsTimeSpansWhenGiven()
    {
        var options = Bind(("LoopIdleSpin", "00:00:00.000150"), ("UdpSpinAfterSend", "00:00:00"));
        Assert.Equal(TimeSpan.FromMicroseconds(150), options.LoopIdleSpin);
        Assert.Equal(TimeSpan.Zero, options.UdpSpinAfterSend);
        Assert.Equal(NodeLoopKind.Threaded, options.EffectiveLoop);
        options.Validate();
    }

    [Fact]
    public void TheLoopIsReadWhateverItsCaseWhenGiven()
    {
        Assert.Equal(NodeLoopKind.Threaded, Bind(("Loop", "threaded")).EffectiveLoop);
        Assert.Equal(NodeLoopKind.Udp, Bind(("Loop", "Udp")).EffectiveLoop);
    }

    [Fact]
    public void AnUnknownSettingIsRefusedByNameWhenBound()
    {
        var ex = Assert.Throws<CamCubeConfigurationException>(() => Bind(("HeartbeatIntervall", "00:00:01")).Validate());
        Assert.StartsWith("CamCube:HeartbeatIntervall: unknown setting; the settings of CamCube are Shape, Coordinate, BasePort,", ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("Seed", "seven", "CamCube:Seed: 'seven' is not a whole number.")]
    [InlineData("Insecure", "yes", "CamCube:Insecure: 'yes' is not true or false.")]
    [InlineData("HeartbeatInterval", "100ms", "CamCube:HeartbeatInterval: '100ms' is not a duration such as 00:00:00.100 (hours:minutes:seconds).")]
    [InlineData("Loop", "fast", "CamCube:Loop: 'fast' is not one of Udp, Threaded.")]
    public void AValueOfTheWrongTypeIsRefusedByNameWhenBound(string setting, string value, string message)
    {
        var ex = Assert.Throws<CamCubeConfigurationException>(() => Bind((setting, value)).Validate());
        Assert.Equal(message, ex.Message);
    }

    [Theory]
    [InlineData("LoopIdleSpin", "00:00:02", "CamCube:LoopIdleSpin: 00:00:02 is not from 00:00:00 to 00:00:01.")]
    [InlineData("UdpSpinAfterSend", "00:00:00.002", "CamCube:UdpSpinAfterSend: 00:00:00.0020000 is not from 00:00:00 to 00:00:00.0010000.")]
    [InlineData("HeartbeatInterval", "00:00:00", "CamCube:HeartbeatInterval: 00:00:00 is not from 00:00:00.0010000 to 00:01:00.")]
    [InlineData("RateLimitMegabitsPerSecond", "-1", "CamCube:RateLimitMegabitsPerSecond: -1 is not from 0 to 1000000.")]
    [InlineData("BasePort", "0", "CamCube:BasePort: 0 is not from 1 to 65535.")]
    [InlineData("PostedItemsMax", "0", "CamCube:PostedItemsMax: 0 is not from 1 to 16777216.")]
    [InlineData("DropNoticesPerSecondMax", "-1", "CamCube:DropNoticesPerSecondMax: -1 is not from 0 to 10000000.")]
    public void AValueOutOfRangeIsRefusedByNameWhenChecked(string setting, string value, string message)
    {
        var ex = Assert.Throws<CamCubeConfigurationException>(() => Bind((setting, value)).Validate());
        Assert.Equal(message, ex.Message);
    }

    [Fact]
    public void APortRangePast65535IsRefusedWithThePortsItWouldNeed()
    {
        var ex = Assert.Throws<CamCubeConfigurationException>(() => Bind(("BasePort", "65530")).Validate());
        Assert.Equal("CamCube:BasePort 65530: the 27 servers of 3x3x3 need ports 65530 to 65556, past 65535.", ex.Message);
    }

    [Fact]
    public void AMissingKeyFileIsRefusedByNameWhenChecked()
    {
        var ex = Assert.Throws<CamCubeConfigurationException>(() => Bind(("KeyFile", "/nonexistent/cluster.key")).Validate());
        Assert.StartsWith("CamCube:KeyFile: '/nonexistent/cluster.key' does not exist.", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AMissingShapeIsRefusedWithWhereToSetIt()
    {
        var options = new CamCubeNodeOptions { Coordinate = "0,0,0" };
        var ex = Assert.Throws<CamCubeConfigurationException>(options.Validate);
        Assert.Equal("CamCube:Shape is required (in appsettings.json, --CamCube:Shape=..., or CAMCUBE__SHAPE in the environment).", ex.Message);
    }

    [Fact]
    public void ACoordinateOutsideTheTorusIsRefusedByName()
    {
        var ex = Assert.Throws<CamCubeConfigurationException>(() => Bind(("Coordinate", "3,0,0")).Validate());
        Assert.Equal("CamCube:Coordinate: (3,0,0) is outside the torus 3x3x3; x, y, z must be at most 2, 2, 2.", ex.Message);
    }

    [Theory]
    [InlineData("")]
    [InlineData("  ")]
    public void BlankPeersAreRefusedByNameWhenGiven(string peers)
    {
        // Found by the fuzzer (tests/CamCube.Fuzz/corpus/node-settings/found-empty-peers): it threw ArgumentException.
        var options = Bind();
        options.Peers = peers;
        options.BasePort = null;
        var ex = Assert.Throws<CamCubeConfigurationException>(options.Validate);
        Assert.StartsWith("CamCube:Peers: empty;", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AControlSocketPathTooLongToBindIsRefusedByName()
    {
        var path = "/tmp/" + new string('s', 120) + ".sock";
        var ex = Assert.Throws<CamCubeConfigurationException>(() => Bind(("ControlSocket", path)).Validate());
        Assert.Equal($"CamCube:ControlSocket: '{path}' is longer than a Unix socket path may be (107 bytes); choose a shorter path.", ex.Message);
    }

    [Fact]
    public void SpinningIsRefusedForTheLoopThatReadsItsSocket()
    {
        var ex = Assert.Throws<CamCubeConfigurationException>(() => Bind(("Loop", "Udp"), ("LoopIdleSpin", "00:00:00.00001")).Validate());
        Assert.StartsWith("CamCube:LoopIdleSpin: only a threaded loop spins for work", ex.Message, StringComparison.Ordinal);
    }

    private static CamCubeNodeOptions Bind(params (string Key, string Value)[] extra)
    {
        var values = new Dictionary<string, string?> { ["CamCube:Shape"] = "3x3x3", ["CamCube:Coordinate"] = "1,1,1", ["CamCube:Insecure"] = "true" };
        foreach (var (key, value) in extra)
        {
            values["CamCube:" + key] = value;
        }

        return CamCubeNodeOptions.Bind(new ConfigurationBuilder().AddInMemoryCollection(values).Build());
    }
}
