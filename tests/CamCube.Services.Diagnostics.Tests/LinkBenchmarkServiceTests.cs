using CamCube.Testing;

namespace CamCube.Services.Diagnostics.Tests;

public class LinkBenchmarkServiceTests
{
    [Theory]
    [InlineData(1)]
    [InlineData(3)]
    [InlineData(6)]
    public void EveryServerReceivesFullSizeFramesOnTheLinksItsNeighboursSaturate(int links)
    {
        var shape = new TorusShape(3, 3, 3);
        var cube = InMemoryCube.Start(shape, n => n.Register(new LinkBenchmarkService()));
        foreach (var node in cube.LiveNodes)
        {
            node.GetService<LinkBenchmarkService>()!.Start(links, packetsPerLinkMax: 100);
        }

        cube.RunUntilIdle();
        foreach (var node in cube.LiveNodes)
        {
            var report = node.GetService<LinkBenchmarkService>()!.Report();
            Assert.Equal(links * 100, report.PacketsReceived);
            Assert.Equal(links * 100L * cube.Pool.PacketCapacityBytes, report.BytesReceived);
        }
    }

    [Fact]
    public void LinkCountOutsideTheServersLinksIsRejected()
    {
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 1), n => n.Register(new LinkBenchmarkService()));
        var service = cube[new Coordinate(0, 0, 0)].GetService<LinkBenchmarkService>()!;
        var ex = Assert.Throws<ArgumentOutOfRangeException>(() => service.Start(5));
        Assert.Contains("the 4 links", ex.Message, StringComparison.Ordinal);
    }
}
