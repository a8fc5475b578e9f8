using CamCube.Runtime.Routing;
using CamCube.Testing;

namespace CamCube.Runtime.Tests;

public class RoutingComputationCacheTests
{
    private static readonly TorusShape s_shape = new(5, 4, 3);

    [Theory]
    [InlineData(3)]
    [InlineData(11)]
    [InlineData(29)]
    public void SharedSearchesGiveEveryNodeTheRoutesOfItsOwnBreadthFirstSearches(int seed)
    {
        var failed = FailedServers(seed, count: 6);
        var shared = new RoutingComputationCache(s_shape);
        for (long i = 0; i < s_shape.ServerCount; i++)
        {
            var self = s_shape.CoordinateAt(i);
            var table = TableWithFailures(self, failed, shared, sequence: 1 + (uint)i);
            var reference = new ReferenceRoutes(table.Database, self);
            var own = TableWithFailures(self, failed, computations: null, sequence: 1);
            for (long j = 0; j < s_shape.ServerCount; j++)
            {
                var target = s_shape.CoordinateAt(j);
                Assert.Equal(reference.NextHops(target), table.NextHops(target));
                Assert.Equal(reference.NextHops(target), own.NextHops(target));
                Assert.Equal(reference.IsReachable(target), table.Reachability.IsReachable(target));
                Assert.Equal(own.DetourHops(target, excluded: 0b000101), table.DetourHops(target, excluded: 0b000101));
            }
        }

        // Every node's database holds the same links: one graph, one search per source at most.
        Assert.Equal(1, shared.GraphsBuilt);
        Assert.Equal(s_shape.ServerCount - 1, shared.GraphsShared);
        Assert.InRange(shared.SearchesRun, 1, s_shape.ServerCount);
    }

    [Fact]
    public void NodeWhoseDatabaseDiffersGetsItsOwnGraphWhenAnotherNodeFilledTheCacheFirst()
    {
        var shared = new RoutingComputationCache(s_shape);
        var self = new Coordinate(0, 0, 0);
        var onShortestPath = new Coordinate(1, 0, 0);
        var target = new Coordinate(2, 0, 0);
        var elsewhere = new Coordinate(3, 3, 2);
        var converged = TableWithFailures(self, [elsewhere, onShortestPath], shared, sequence: 1);
        Assert.Equal(0, converged.NextHops(target) & (1 << (int)LinkDirection.PlusX));

        // Not yet told of the failure on the path: it must still route through it, as its own database says.
        var behind = TableWithFailures(self, [elsewhere], shared, sequence: 1);

        Assert.Equal(1 << (int)LinkDirection.PlusX, behind.NextHops(target));
        Assert.True(behind.Reachability.IsReachable(onShortestPath));
        Assert.False(converged.Reachability.IsReachable(onShortestPath));
        Assert.Equal(2, shared.GraphsBuilt);
    }

    [Fact]
    public void NodeFollowsItsDatabaseToANewGraphWhenAnUpdateArrivesAfterSharing()
    {
        var shared = new RoutingComputationCache(s_shape);
        var self = new Coordinate(0, 0, 0);
        var target = new Coordinate(2, 0, 0);
        var first = TableWithFailures(self, [new Coordinate(3, 3, 2)], shared, sequence: 1);
        var second = TableWithFailures(self, [new Coordinate(3, 3, 2)], shared, sequence: 1);
        Assert.Equal(first.NextHops(target), second.NextHops(target));

        Fail(second.Database, new Coordinate(1, 0, 0), sequence: 2);

        Assert.Equal(1 << (int)LinkDirection.PlusX, first.NextHops(target));
        Assert.Equal(0, second.NextHops(target) & (1 << (int)LinkDirection.PlusX));
        Assert.Equal([(new Coordinate(1, 0, 0), false)], second.TakeReachabilityChanges().Where(c => c.Server == new Coordinate(1, 0, 0)));
        Assert.Equal(new ReferenceRoutes(second.Database, self).NextHops(target), second.NextHops(target));
    }

    [Fact]
    public void FingerprintDependsOnTheLinksOnlyWhateverTheOrderAndSequencesOfUpdates()
    {
        var a = new LinkStateDatabase(s_shape, 0b111111);
        var b = new LinkStateDatabase(s_shape, 0b111111);

        a.TryUpdate(7, 1, 0b111110);
        a.TryUpdate(9, 1, 0b011111);
        b.TryUpdate(9, 5, 0b011111);
        b.TryUpdate(7, 3, 0b111110);
        Assert.Equal(a.Fingerprint, b.Fingerprint);
        Assert.NotEqual(0UL, a.Fingerprint);

        b.TryUpdate(7, 4, 0b111101);
        Assert.NotEqual(a.Fingerprint, b.Fingerprint);

        b.TryUpdate(7, 6, 0b111111);
        b.TryUpdate(9, 6, 0b111111);
        Assert.Equal(0UL, b.Fingerprint);
    }

    [Fact]
    public void NodeRefusesACacheOfAnotherShapeWhenCreated()
    {
        var options = new InMemoryCubeOptions { NodeOptions = () => new NodeOptions { PublishMetrics = false, RoutingComputations = new RoutingComputationCache(new TorusShape(4, 4, 4)) } };

        var thrown = Assert.Throws<ArgumentException>(() => InMemoryCube.Start(new TorusShape(3, 3, 3), options: options));

        Assert.Contains("4x4x4", thrown.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void NodesSharingACacheConvergeAndRouteKeysToTheOraclesRootAfterFailuresAndARecovery()
    {
        var shape = new TorusShape(4, 4, 4);
        var shared = new RoutingComputationCache(shape);
        var log = new List<Delivery>();
        var cube = InMemoryCube.Start(
            shape,
            n => n.Register(new RecordingService(0x0100, log)),
            new InMemoryCubeOptions { NodeOptions = () => new NodeOptions { PublishMetrics = false, RoutingComputations = shared } });
        cube.Kill(new Coordinate(1, 1, 1));
        cube.Kill(new Coordinate(2, 1, 1));
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        cube.Restart(new Coordinate(1, 1, 1));
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));

        var live = ReachabilityView.WithUnreachable(shape, [new Coordinate(2, 1, 1)]);
        var expected = new Dictionary<int, Coordinate>();
        var random = new Random(5);
        var id = 0;
        foreach (var node in cube.LiveNodes.ToArray())
        {
            for (var k = 0; k < 8; k++)
            {
                var key = node.KeySpace.KeyCoordinateOf(Key.FromRoutingBits((ulong)random.NextInt64()));
                Assert.True(KeySpace.For(shape).TryGetRoot(key, live, out var root));
                expected[id] = root;
                node.GetService<RecordingService>()!.SendToKey(key, id++);
            }
        }

        cube.RunUntilIdle();
        Assert.Equal(expected.Count, log.Count);
        Assert.All(log, d => Assert.Equal(expected[d.PacketId], d.At));
        Assert.True(shared.GraphsShared > shared.GraphsBuilt, $"{shared.GraphsShared} graphs shared, {shared.GraphsBuilt} built.");
    }

    [Theory]
    [InlineData(11)]
    [InlineData(12)]
    [InlineData(13)]
    public void TableRootsAreTheKeyspacesRootsWithFailedServers(int seed)
    {
        var failed = FailedServers(seed, 6);
        var self = Enumerable.Range(0, (int)s_shape.ServerCount).Select(i => s_shape.CoordinateAt(i)).First(c => !failed.Contains(c));
        var table = TableWithFailures(self, failed, computations: null, sequence: 1);
        var oracle = ReachabilityView.WithUnreachable(s_shape, failed);
        var keySpace = KeySpace.For(s_shape);
        var random = new Random(seed);
        for (var i = 0; i < 2_000; i++)
        {
            // Half of the keys have a failed home, whose root is one of the walk's later entries.
            var key = i % 2 == 0
                ? KeyCoordinate.At(failed[random.Next(failed.Count)], (ushort)random.Next(65_536))
                : keySpace.KeyCoordinateOf(Key.FromRoutingBits((ulong)random.NextInt64()));
            Assert.True(keySpace.TryGetRoot(key, oracle, out var expected));
            Assert.True(table.TryGetRoot(keySpace, key, out var root));
            Assert.Equal(expected, root);
        }
    }

    [Theory]
    [InlineData(21)]
    [InlineData(22)]
    public void SharedRootsAreEachTablesOwnWhenTablesSharingACacheSeeDifferentFailures(int seed)
    {
        // Two tables on different graphs (the second sees one more failure) resolve the same keys
        // in turn, so each finds the other's roots in the shared cache under another graph's tag.
        var failed = FailedServers(seed, 7);
        var fewer = failed.Take(6).ToList();
        var live = Enumerable.Range(0, (int)s_shape.ServerCount).Select(i => s_shape.CoordinateAt(i)).Where(c => !failed.Contains(c)).ToList();
        var computations = new RoutingComputationCache(s_shape);
        var first = TableWithFailures(live[0], fewer, computations, sequence: 1);
        var second = TableWithFailures(live[^1], failed, computations, sequence: 1);
        var third = TableWithFailures(live[live.Count / 2], fewer, computations, sequence: 1);
        var keySpace = KeySpace.For(s_shape);
        var random = new Random(seed);
        for (var i = 0; i < 2_000; i++)
        {
            var key = KeyCoordinate.At(failed[random.Next(failed.Count)], (ushort)random.Next(65_536));
            foreach (var (table, down) in new[] { (first, fewer), (second, failed), (third, fewer) })
            {
                Assert.True(keySpace.TryGetRoot(key, ReachabilityView.WithUnreachable(s_shape, down), out var expected));
                Assert.True(table.TryGetRoot(keySpace, key, out var root));
                Assert.Equal(expected, root);
            }
        }
    }

    private static List<Coordinate> FailedServers(int seed, int count)
    {
        var random = new Random(seed);
        var failed = new List<Coordinate>();
        while (failed.Count < count)
        {
            var c = s_shape.CoordinateAt(random.NextInt64(s_shape.ServerCount));
            if (!failed.Contains(c))
            {
                failed.Add(c);
            }
        }

        return failed;
    }

    /// <summary>A table whose database says, as link state would, that every neighbour of a failed server lost its link to it.</summary>
    private static RoutingTable TableWithFailures(Coordinate self, IEnumerable<Coordinate> failed, RoutingComputationCache? computations, uint sequence)
    {
        var table = new RoutingTable(s_shape, self, 0b111111, computations);
        foreach (var server in failed)
        {
            Fail(table.Database, server, sequence);
        }

        return table;
    }

    private static void Fail(LinkStateDatabase database, Coordinate server, uint sequence)
    {
        database.TryUpdate((int)s_shape.IndexOf(server), sequence, 0);
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            var link = (LinkDirection)d;
            var neighbor = (int)s_shape.IndexOf(s_shape.Neighbor(server, link));
            var up = (byte)(database.UpLinksOf(neighbor) & ~(1 << (int)s_shape.PeerLink(link)));
            database.TryUpdate(neighbor, Math.Max(sequence, database.SequenceOf(neighbor) + 1), up);
        }
    }

    /// <summary>Routes found the plain way, by one breadth-first search per neighbour straight over the database.</summary>
    private sealed class ReferenceRoutes
    {
        private readonly LinkStateDatabase _database;
        private readonly Coordinate _self;
        private readonly Dictionary<LinkDirection, Dictionary<Coordinate, int>> _fromNeighbor = [];
        private readonly Dictionary<Coordinate, int> _fromSelf;

        public ReferenceRoutes(LinkStateDatabase database, Coordinate self)
        {
            _database = database;
            _self = self;
            _fromSelf = Search(self);
            for (var d = 0; d < LinkDirections.Count; d++)
            {
                var link = (LinkDirection)d;
                if (Usable(self, link))
                {
                    _fromNeighbor[link] = Search(s_shape.Neighbor(self, link));
                }
            }
        }

        public bool IsReachable(Coordinate server) => _fromSelf.ContainsKey(server);

        public byte NextHops(Coordinate server)
        {
            if (server == _self || !IsReachable(server))
            {
                return 0;
            }

            var best = _fromNeighbor.Values.Min(distances => distances.GetValueOrDefault(server, int.MaxValue));
            byte links = 0;
            foreach (var (link, distances) in _fromNeighbor)
            {
                if (distances.GetValueOrDefault(server, int.MaxValue) == best)
                {
                    links |= (byte)(1 << (int)link);
                }
            }

            return links;
        }

        private bool Usable(Coordinate server, LinkDirection link) =>
            _database.IsUsable((int)s_shape.IndexOf(server), link, (int)s_shape.IndexOf(s_shape.Neighbor(server, link)), s_shape.PeerLink(link));

        private Dictionary<Coordinate, int> Search(Coordinate origin)
        {
            var distances = new Dictionary<Coordinate, int> { [origin] = 0 };
            var queue = new Queue<Coordinate>([origin]);
            while (queue.TryDequeue(out var c))
            {
                for (var d = 0; d < LinkDirections.Count; d++)
                {
                    var next = s_shape.Neighbor(c, (LinkDirection)d);
                    if (Usable(c, (LinkDirection)d) && distances.TryAdd(next, distances[c] + 1))
                    {
                        queue.Enqueue(next);
                    }
                }
            }

            return distances;
        }
    }
}
