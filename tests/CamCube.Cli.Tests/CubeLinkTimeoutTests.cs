using CamCube.Cli.Cube;

namespace CamCube.Cli.Tests;

/// <summary>
/// `cube up`'s link timeout: a cube of processes shares this machine's cores, so unless the user
/// says otherwise its links stay up through a second of silence (a node compiling its code waits
/// for the CPU); a cube in one process keeps the node's own rule.
/// </summary>
public sealed class CubeLinkTimeoutTests
{
    [Fact]
    public void ProcessCubeWaitsASecondOfSilenceWhenNoTimeoutIsGiven()
    {
        var (options, _) = CubeCommand.ReadUp(["--shape", "2x2x2"]);

        Assert.Equal(TimeSpan.FromSeconds(1), options.HeartbeatTimeout);
    }

    [Fact]
    public void ProcessCubeWaitsThreeAndAHalfHeartbeatsWhenTheyAreLongerThanASecondInAll()
    {
        var (options, _) = CubeCommand.ReadUp(["--heartbeat-ms", "400"]);

        Assert.Equal(TimeSpan.FromMilliseconds(1400), options.HeartbeatTimeout);
    }

    [Fact]
    public void InProcessCubeKeepsTheNodesOwnRuleWhenNoTimeoutIsGiven()
    {
        var (options, _) = CubeCommand.ReadUp(["--in-process"]);

        Assert.Null(options.HeartbeatTimeout);
    }

    [Fact]
    public void TimeoutGivenIsTakenAsItIsForEitherKindOfCube()
    {
        Assert.Equal(TimeSpan.FromMilliseconds(350), CubeCommand.ReadUp(["--timeout-ms", "350"]).Options.HeartbeatTimeout);
        Assert.Equal(TimeSpan.FromMilliseconds(350), CubeCommand.ReadUp(["--in-process", "--timeout-ms", "350"]).Options.HeartbeatTimeout);
    }
}
