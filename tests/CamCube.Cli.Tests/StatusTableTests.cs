using System.Text.Json;
using CamCube.Cli.Cube;

namespace CamCube.Cli.Tests;

/// <summary>The table of `cube status` and of the live view of `cube up`.</summary>
public sealed class StatusTableTests
{
    internal static JsonDocument NodeStatus(long sent, long badTag = 0, long replay = 0, long runtimeDropped = 0) => JsonDocument.Parse(
        $$"""
        {"self":"0,0,0","linksUp":5,"linkCount":6,"reachable":26,"framesSent":{{sent}},"framesReceived":40,
         "dropped":{"NoRoute":{{runtimeDropped}}},
         "transportDropped":{"unknownSender":1,"badTag":{{badTag}},"replay":{{replay}},"malformed":2},
         "memcached":"127.0.0.1:11211"}
        """);

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
