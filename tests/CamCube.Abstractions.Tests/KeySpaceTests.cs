using CamCube.Testing;

namespace CamCube.Abstractions.Tests;

public class KeySpaceTests
{
    [Fact]
    public void PaperTwoDimensionalExampleYieldsItsSequence()
    {
        // camcubeos 3.2: home (2,2), facet +x+y, order xy.
        var keySpace = KeySpace.For(new TorusShape(5, 5, 1));
        var servers = keySpace.GetServersForKey(new KeyCoordinate(2, 2, 0, W: 0), 5);
        Assert.Equal([new(2, 2, 0), new(3, 2, 0), new(2, 3, 0), new(4, 2, 0), new(3, 3, 0)], servers);
    }

    [Fact]
    public void FacetAndOrderComeFromWModulo48()
    {
        var keySpace = KeySpace.For(new TorusShape(5, 5, 5));
        var home = new Coordinate(2, 2, 2);

        // w = 48 + 6 * 3 + 5: facet 3 (-x, -y, +z), order zyx.
        var servers = keySpace.GetServersForKey(KeyCoordinate.At(home, 48 + 23), 4);
        Assert.Equal([home, new(2, 2, 3), new(2, 1, 2), new(1, 2, 2)], servers);

        // w = 6 * 4 + 2: facet 4 (+x, +y, -z), order yxz.
        servers = keySpace.GetServersForKey(KeyCoordinate.At(home, 26), 4);
        Assert.Equal([home, new(2, 3, 2), new(3, 2, 2), new(2, 2, 1)], servers);
    }

    [Fact]
    public void WalkWrapsAroundAndVisitsEveryServerOnce()
    {
        foreach (var shape in new[] { new TorusShape(3, 3, 3), new TorusShape(4, 1, 2), new TorusShape(7, 5, 3), new TorusShape(1, 1, 1) })
        {
            var keySpace = KeySpace.For(shape);
            for (ushort w = 0; w < KeySpace.SequenceCount; w++)
            {
                var kc = KeyCoordinate.At(new Coordinate(shape.X - 1, 0, shape.Z - 1), w);
                var walk = keySpace.GetServersForKey(kc, (int)shape.ServerCount);
                Assert.Equal(shape.ServerCount, walk.Length);
                Assert.Equal(walk.Length, walk.Distinct().Count());
                Assert.All(walk, c => Assert.True(shape.Contains(c)));
            }
        }
    }

    [Fact]
    public void EveryKeyHasALiveRootAndAllReachableServersAreListedOnceUnderRandomFailures()
    {
        // G1 as a property over random shapes (2D and axes of size 1, 2, 3 included) and failure sets.
        var seed = 7_340_033;
        var random = new Random(seed);
        for (var trial = 0; trial < 400; trial++)
        {
            var shape = new TorusShape(random.Next(1, 7), random.Next(1, 7), random.Next(0, 3) == 0 ? 1 : random.Next(1, 7));
            var keySpace = KeySpace.For(shape);
            var view = RandomFailures(random, shape, failedFraction: random.NextDouble());
            var reachable = AllCoordinates(shape).Where(view.IsReachable).ToHashSet();
            for (var k = 0; k < 20; k++)
            {
                var kc = keySpace.KeyCoordinateOf(Key.FromRoutingBits((ulong)random.NextInt64()));
                var all = keySpace.GetServersForKey(kc, (int)shape.ServerCount, view);
                Assert.True(reachable.SetEquals(all), $"seed {seed} trial {trial} shape {shape} {kc}");
                Assert.Equal(all.Length, all.Distinct().Count());
                Assert.True(keySpace.TryGetRoot(kc, view, out var root));
                Assert.True(view.IsReachable(root));
                Assert.Equal(all[0], root);
            }
        }
    }

    [Theory]
    [InlineData(3, 3, 3)]
    [InlineData(5, 5, 5)]
    [InlineData(4, 6, 5)]
    public void FailedServersKeysSpreadEquallyOverItsSixNeighbors(int x, int y, int z)
    {
        // G2, exact over the 48 sequences.
        var shape = new TorusShape(x, y, z);
        var keySpace = KeySpace.For(shape);
        var failed = new Coordinate(1, 2, 0);
        var view = ReachabilityView.WithUnreachable(shape, [failed]);
        var counts = new Dictionary<Coordinate, int>();
        for (ushort w = 0; w < KeySpace.SequenceCount; w++)
        {
            Assert.True(keySpace.TryGetRoot(KeyCoordinate.At(failed, w), view, out var root));
            Assert.Equal(1, shape.Distance(failed, root));
            counts[root] = counts.GetValueOrDefault(root) + 1;
        }

        Assert.Equal(6, counts.Count);
        Assert.All(counts.Values, c => Assert.Equal(8, c));
    }

    [Fact]
    public void WithoutFailuresServersOneToThreeAreNeighborsOfTheRoot()
    {
        var random = new Random(42);
        foreach (var shape in new[] { new TorusShape(3, 3, 3), new TorusShape(8, 8, 8), new TorusShape(7, 5, 3), new TorusShape(20, 20, 20) })
        {
            var keySpace = KeySpace.For(shape);
            for (var i = 0; i < 2_000; i++)
            {
                var servers = keySpace.GetServersForKey(Key.FromRoutingBits((ulong)random.NextInt64()), 4);
                for (var j = 1; j <= 3; j++)
                {
                    Assert.Equal(1, shape.Distance(servers[0], servers[j]));
                }

                Assert.Equal(3, servers.Skip(1).Select(s => Axis(servers[0], s)).Distinct().Count());
            }
        }
    }

    [Theory]
    [InlineData(3)]
    [InlineData(5)]
    [InlineData(7)]
    [InlineData(20)]
    [InlineData(655)]
    public void MultiplyShiftMapsEveryAxisValueToAPositionWithinOnePercent(int size)
    {
        // Exhaustive over the 65,536 values of one axis's 16 routing bits.
        var keySpace = KeySpace.For(new TorusShape(size, 1, 1));
        var counts = new int[size];
        for (ulong v = 0; v < 65_536; v++)
        {
            counts[keySpace.KeyCoordinateOf(Key.FromRoutingBits(v << 48)).X]++;
        }

        var expected = 65_536.0 / size;
        Assert.All(counts, c => Assert.InRange(c, expected * 0.99, expected * 1.01));
    }

    [Theory]
    [InlineData(3, 3, 3)]
    [InlineData(7, 5, 3)]
    [InlineData(20, 20, 20)]
    public void MillionRandomKeysSpreadUniformlyOverRoots(int x, int y, int z)
    {
        var shape = new TorusShape(x, y, z);
        var keySpace = KeySpace.For(shape);
        var view = new ReachabilityView(shape);
        const int KeyCount = 1_000_000;
        var counts = new int[shape.ServerCount];
        for (var i = 0; i < KeyCount; i++)
        {
            Assert.True(keySpace.TryGetRoot(keySpace.KeyCoordinateOf(Key.FromString($"key-{i}")), view, out var root));
            counts[shape.IndexOf(root)]++;
        }

        // Each count is binomial(KeyCount, 1/N). Within 1% of 1/N holds for 3x3x3 and 7x5x3; for
        // 8,000 servers sampling noise alone is 9% per server, so the bound is five standard deviations.
        var p = 1.0 / shape.ServerCount;
        var expected = KeyCount * p;
        var tolerance = Math.Max(expected * 0.01, 5 * Math.Sqrt(KeyCount * p * (1 - p)));
        Assert.All(counts, c => Assert.InRange(c, expected - tolerance, expected + tolerance));
    }

    [Fact]
    public void ShorterAnswerIsAPrefixOfTheLongerAndIndependentInstancesAgree()
    {
        var random = new Random(99);
        var shape = new TorusShape(8, 6, 4);
        var shared = KeySpace.For(shape);
        var independent = KeySpace.CreateUncached(shape);
        var view = RandomFailures(random, shape, failedFraction: 0.1);
        for (var i = 0; i < 5_000; i++)
        {
            var key = Key.FromRoutingBits((ulong)random.NextInt64());
            var five = shared.GetServersForKey(key, 5, view);
            var one = shared.GetServersForKey(key, 1, view);
            Assert.Equal(five[0], one[0]);
            Assert.Equal(five, independent.GetServersForKey(key, 5, view));
        }
    }

    [Fact]
    public void RBelowOneIsRejected()
    {
        var keySpace = KeySpace.For(new TorusShape(3, 3, 3));
        var ex = Assert.Throws<ArgumentOutOfRangeException>(() => keySpace.GetServersForKey(Key.FromString("a"), 0));
        Assert.Equal("r", ex.ParamName);
        Assert.Contains("at least 1", ex.Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentException>(() => keySpace.GetServersForKey(default, new ReachabilityView(keySpace.Shape), Span<Coordinate>.Empty));
    }

    [Fact]
    public void RLargerThanReachableReturnsEveryReachableServer()
    {
        var shape = new TorusShape(3, 3, 3);
        var view = ReachabilityView.WithUnreachable(shape, AllCoordinates(shape).Where(c => c.X != 1));
        var servers = KeySpace.For(shape).GetServersForKey(Key.FromString("a"), 20, view);
        Assert.Equal(9, servers.Length);
        Assert.All(servers, s => Assert.Equal(1, s.X));
    }

    [Fact]
    public void NoReachableServerMeansNoRoot()
    {
        var shape = new TorusShape(2, 1, 1);
        var view = ReachabilityView.WithUnreachable(shape, AllCoordinates(shape));
        Assert.False(KeySpace.For(shape).TryGetRoot(default, view, out _));
        Assert.Empty(KeySpace.For(shape).GetServersForKey(Key.FromString("a"), 3, view));
    }

    [Fact]
    public void KeyCoordinateOutsideTheShapeIsRejected()
    {
        var keySpace = KeySpace.For(new TorusShape(3, 3, 3));
        var ex = Assert.Throws<ArgumentOutOfRangeException>(() => keySpace.GetServersForKey(new KeyCoordinate(3, 0, 0, 0), 1));
        Assert.Contains("(3,0,0)", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ViewOfAnotherShapeIsRejected()
    {
        var keySpace = KeySpace.For(new TorusShape(3, 3, 3));
        var ex = Assert.Throws<ArgumentException>(() => keySpace.GetServersForKey(Key.FromString("a"), 1, new ReachabilityView(new TorusShape(4, 4, 4))));
        Assert.Contains("4x4x4", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void LookupsAllocateNothingOnceTablesHaveGrown()
    {
        var shape = new TorusShape(20, 20, 20);
        var keySpace = KeySpace.For(shape);
        var view = RandomFailures(new Random(5), shape, 0.1);
        Span<Coordinate> three = stackalloc Coordinate[3];
        var kc = keySpace.KeyCoordinateOf(Key.FromString("warm"));
        for (ushort w = 0; w < KeySpace.SequenceCount; w++)
        {
            keySpace.GetServersForKey(kc with { W = w }, view, three);
        }

        var allocated = AllocationProbe.OnCurrentThread(() =>
        {
            Span<Coordinate> servers = stackalloc Coordinate[3];
            for (ushort w = 0; w < 1_000; w++)
            {
                keySpace.GetServersForKey(kc with { W = w }, view, servers);
            }
        });

        Assert.Equal(0, allocated);
    }

    private static int Axis(Coordinate a, Coordinate b) => a.X != b.X ? 0 : a.Y != b.Y ? 1 : 2;

    internal static IEnumerable<Coordinate> AllCoordinates(TorusShape shape)
    {
        for (long i = 0; i < shape.ServerCount; i++)
        {
            yield return shape.CoordinateAt(i);
        }
    }

    internal static ReachabilityView RandomFailures(Random random, TorusShape shape, double failedFraction)
    {
        var view = new ReachabilityView(shape);
        var keep = shape.CoordinateAt(random.NextInt64(shape.ServerCount));
        foreach (var c in AllCoordinates(shape))
        {
            if (c != keep && random.NextDouble() < failedFraction)
            {
                view.SetReachable(c, reachable: false);
            }
        }

        return view;
    }
}
