using CamCube.Services;
using CamCube.Testing;

namespace CamCube.Runtime.Tests;

public class KeyRoutingTests
{
    private const ushort Probe = 0x0100;

    [Theory]
    [InlineData(3, 3, 3)]
    [InlineData(4, 4, 4)]
    public void EveryKeyRoutedPacketFromEveryNodeReachesTheKeysRoot(int x, int y, int z)
    {
        var shape = new TorusShape(x, y, z);
        var log = new List<Delivery>();
        var cube = InMemoryCube.Start(shape, n => n.Register(new RecordingService(Probe, log)));
        var random = new Random(11);
        var expected = new Dictionary<int, Coordinate>();
        var id = 0;
        foreach (var node in cube.LiveNodes.ToArray())
        {
            for (var k = 0; k < 40; k++)
            {
                var key = node.KeySpace.KeyCoordinateOf(Key.FromRoutingBits((ulong)random.NextInt64()));
                expected[id] = KeySpace.For(shape).GetServersForKey(key, 1)[0];
                node.GetService<RecordingService>()!.SendToKey(key, id++);
            }
        }

        cube.RunUntilIdle();
        Assert.Equal(expected.Count, log.Count);
        Assert.All(log, d => Assert.Equal(expected[d.PacketId], d.At));
        Assert.Equal(expected.Count, log.Select(d => d.PacketId).Distinct().Count());
    }

    [Theory]
    [InlineData(3, 3, 3, 17)]
    [InlineData(4, 4, 4, 23)]
    public void WithServersFailedKeysReachTheNewRootTheOracleGives(int x, int y, int z, int seed)
    {
        var shape = new TorusShape(x, y, z);
        var log = new List<Delivery>();
        var cube = InMemoryCube.Start(shape, n => n.Register(new RecordingService(Probe, log)));
        var random = new Random(seed);
        var failed = Enumerable.Range(0, (int)shape.ServerCount).OrderBy(_ => random.Next()).Take(3).Select(i => shape.CoordinateAt(i)).ToArray();
        foreach (var server in failed)
        {
            cube.Kill(server);
        }

        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)), $"views did not converge (seed {seed})");
        var oracle = ReachabilityView.WithUnreachable(shape, failed);
        var expected = new Dictionary<int, Coordinate>();
        var id = 0;
        foreach (var node in cube.LiveNodes.ToArray())
        {
            for (var k = 0; k < 40; k++)
            {
                var key = node.KeySpace.KeyCoordinateOf(Key.FromRoutingBits((ulong)random.NextInt64()));
                Assert.True(node.KeySpace.TryGetRoot(key, oracle, out var root));
                expected[id] = root;
                node.GetService<RecordingService>()!.SendToKey(key, id++);
            }
        }

        cube.RunUntilIdle();
        Assert.Equal(expected.Count, log.Count);
        Assert.All(log, d => Assert.Equal(expected[d.PacketId], d.At));
        Assert.All(log, d => Assert.DoesNotContain(d.At, failed));
    }

    [Fact]
    public void InterceptingServiceCountsEveryHopOfAShortestPath()
    {
        var shape = new TorusShape(4, 4, 4);
        var log = new List<Delivery>();
        var cube = InMemoryCube.Start(shape, n => n.Register(new RecordingService(Probe, log)));
        var source = new Coordinate(0, 0, 0);
        var id = 0;
        foreach (var node in cube.LiveNodes.ToArray())
        {
            cube[source].GetService<RecordingService>()!.SendToServer(node.Self, id++);
        }

        cube.RunUntilIdle();
        Assert.Equal(64, log.Count);
        foreach (var d in log.Where(d => d.At != source))
        {
            var pathLength = shape.Distance(source, d.At);
            Assert.Equal(pathLength, d.HopCount);
            Assert.Equal(pathLength, d.Counter);
        }

        // The local delivery took no hop, and was counted once, by the deliver upcall.
        Assert.Equal(1, log.Single(d => d.At == source).Counter);
    }

    [Fact]
    public void ForwardUpcallCanDropOrRewriteThePacket()
    {
        var shape = new TorusShape(5, 1, 1);
        var log = new List<Delivery>();
        var cube = InMemoryCube.Start(shape, n => n.Register(new RecordingService(Probe, log)));
        var middle = cube[new Coordinate(1, 0, 0)].GetService<RecordingService>()!;
        middle.OnForwardHook = p => p.Payload[0] == 9 ? ForwardDecision.Drop : ForwardDecision.Forward;
        var from = cube[new Coordinate(0, 0, 0)].GetService<RecordingService>()!;
        from.SendToServer(new Coordinate(2, 0, 0), 0x09000000);
        from.SendToServer(new Coordinate(2, 0, 0), 1);
        cube.RunUntilIdle();
        Assert.Equal([1], log.Select(d => d.PacketId));
        Assert.Equal(1, cube[new Coordinate(1, 0, 0)].Counters.Dropped(DropReason.DroppedByService));
    }
}
