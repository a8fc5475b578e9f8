using CamCube.Cli.Cube;
using CamCube.Hosting.Control;

namespace CamCube.Cli.Tests;

/// <summary>The table of `cube status` and of the live view of `cube up`.</summary>
public sealed class StatusTableTests
{
    internal static NodeStatus NodeStatus(long sent, long badTag = 0, long replay = 0, long runtimeDropped = 0) => new()
    {
        Self = "0,0,0",
        LinksUp = 5,
        LinkCount = 6,
        Reachable = 26,
        FramesSent = sent,
        FramesReceived = 40,
        Dropped = new Dictionary<string, long> { ["NoRoute"] = runtimeDropped },
        TransportDropped = new TransportDrops(UnknownSender: 1, BadTag: badTag, Replay: replay, Malformed: 2),
        Listeners = new Dictionary<string, string> { ["memcached"] = "127.0.0.1:11211" },
    };

    [Fact]
    public void RejectedColumnCountsEveryTransportDropWhenDatagramsWereRefused()
    {
        var table = CubeCommand.RenderTable([(new Coordinate(0, 0, 0), 4242, NodeStatus(sent: 50, badTag: 10, replay: 100, runtimeDropped: 7))], new TorusShape(3, 3, 3));
        var lines = table.Split('\n');
        Assert.Equal("node          pid  links  reach       sent   received  dropped rejected  memcached", lines[0].TrimEnd('\r'));
        Assert.Equal("0,0,0        4242    5/6     26         50         40        7      113  127.0.0.1:11211", lines[1].TrimEnd('\r'));
        Assert.Equal("1 of 1 nodes of 3x3x3 answering", lines[2]);
    }

    [Fact]
    public void NodeThatDoesNotAnswerIsShownDownAndNotCounted()
    {
        var table = CubeCommand.RenderTable(
            [(new Coordinate(0, 0, 0), null, NodeStatus(sent: 1)), (new Coordinate(1, 2, 0), 77, null)],
            new TorusShape(3, 3, 3));
        var lines = table.Split('\n').Select(l => l.TrimEnd('\r')).ToArray();
        Assert.Equal("0,0,0           -    5/6     26          1         40        0        3  127.0.0.1:11211", lines[1]);
        Assert.Equal("1,2,0          77   down", lines[2]);
        Assert.Equal("1 of 2 nodes of 3x3x3 answering", lines[3]);
    }
}
