namespace CamCube.Cli.Tests;

public sealed class ArgumentCheckTests
{
    [Fact]
    public void CubeUpReturnsNullWhenArgumentsAreValid() =>
        Assert.Null(ArgumentCheck.CubeUp(["--shape", "2x2x2", "--base-port", "20000", "--state-dir", "/tmp/x"]));

    [Fact]
    public void CubeUpReturnsTheCommandsMessageWhenAnArgumentIsPositional() =>
        Assert.Equal("cube up: unexpected argument 'extra'.", ArgumentCheck.CubeUp(["extra"]));

    [Fact]
    public void NodeReturnsNullWhenArgumentsAreValid() =>
        Assert.Null(ArgumentCheck.Node(["--shape", "3x3x3", "--coord", "1,1,1", "--CamCube:Seed=7"]));

    [Fact]
    public void NodeReturnsTheCommandsMessageWhenASettingHasNoValue() =>
        Assert.Equal("--CamCube:Seed: give a value, such as --CamCube:Seed=VALUE.", ArgumentCheck.Node(["--CamCube:Seed"]));

    [Fact]
    public void NodeReturnsTheHostsMessageWhenTheCoordinateIsOutsideTheShape() =>
        Assert.Contains("5,5,5", ArgumentCheck.Node(["--shape", "3x3x3", "--coord", "5,5,5"]), StringComparison.Ordinal);

    // Found by the fuzz smoke run in CI: the conversion to a duration overflowed and threw.
    [Theory]
    [InlineData("--heartbeat-ms", "522222222222222200", "--heartbeat-ms: '522222222222222200' is outside what a duration holds, -922337203685477 to 922337203685477.")]
    [InlineData("--timeout-ms", "-9223372036854775808", "--timeout-ms: '-9223372036854775808' is outside what a duration holds, -922337203685477 to 922337203685477.")]
    [InlineData("--loop-spin-us", "9223372036854775807", "--loop-spin-us: '9223372036854775807' is outside what a duration holds, -922337203685477580 to 922337203685477580.")]
    [InlineData("--udp-spin-us", "922337203685477581", "--udp-spin-us: '922337203685477581' is outside what a duration holds, -922337203685477580 to 922337203685477580.")]
    public void NodeRefusesADurationTooLargeForATimeSpanWithTheCommandsMessage(string option, string value, string message) =>
        Assert.Equal(message, ArgumentCheck.Node([option, value]));
}
