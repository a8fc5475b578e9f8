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
}
