using CamCube.Testing;

namespace CamCube.Runtime.Tests;

public class FairnessTests
{
    private const ushort First = 0x0100;
    private const ushort Second = 0x0101;

    [Theory]
    [InlineData(1, 1, 0.5)]
    [InlineData(3, 1, 0.75)]
    public void TwoServicesSaturatingOneLinkShareItByWeight(int firstWeight, int secondWeight, double expectedFirstShare)
    {
        var log = new List<Delivery>();
        var cube = InMemoryCube.Start(new TorusShape(3, 1, 1), n =>
        {
            n.Register(new RecordingService(First, log), firstWeight);
            n.Register(new RecordingService(Second, log), secondWeight);
        });
        var source = cube[new Coordinate(0, 0, 0)];
        var target = new Coordinate(1, 0, 0);
        for (var i = 0; i < 6_000; i++)
        {
            source.GetService<RecordingService>()!.SendToServer(target, i);
        }

        var second = (RecordingService)source.GetService(Second)!;
        for (var i = 0; i < 6_000; i++)
        {
            second.SendToServer(target, i);
        }

        cube.RunUntilIdle();
        Assert.Equal(12_000, log.Count);

        // While both are backlogged (the first 4,000 deliveries), the link is shared by weight.
        var window = log.Take(4_000).ToArray();
        var share = window.Count(d => d.ServiceId == First) / (double)window.Length;
        Assert.InRange(share, expectedFirstShare * 0.95, expectedFirstShare * 1.05);
    }

    [Fact]
    public void LinkStateUpdatesAreNotStarvedBySaturatingData()
    {
        var log = new List<Delivery>();
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3), n => n.Register(new RecordingService(First, log)));
        var source = cube[new Coordinate(0, 0, 0)];
        var neighbor = cube[new Coordinate(1, 0, 0)];
        for (var i = 0; i < 5_000; i++)
        {
            source.GetService<RecordingService>()!.SendToServer(neighbor.Self, i);
        }

        // The source's own update must cross its saturated +x link to reach the neighbour.
        cube.Network.CutLink(source.Self, LinkDirection.PlusY);
        var sourceIndex = (int)cube.Shape.IndexOf(source.Self);
        bool Learned() => (neighbor.Routes.Database.UpLinksOf(sourceIndex) & (1 << (int)LinkDirection.PlusY)) == 0;
        var steps = 0;
        while (!Learned() && cube.Loop.RunUntilIdle(itemsMax: 1) == 1)
        {
            steps++;
        }

        Assert.True(Learned());
        Assert.True(source.GetQueuedPacketCount(First) > 4_900, $"only {source.GetQueuedPacketCount(First)} data packets were still queued after {steps} steps");
    }
}
