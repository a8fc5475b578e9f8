namespace CamCube.Services.Cache.Tests;

public class HotSpotReplicasTests
{
    private static readonly TorusShape s_shape = new(20, 20, 20);

    [Fact]
    public void SecondariesAreDeterministicInsideTheShapeAndKeepW()
    {
        var primary = new KeyCoordinate(3, 14, 7, 4242);
        var a = new KeyCoordinate[8];
        var b = new KeyCoordinate[8];
        Assert.Equal(8, HotSpotReplicas.GetSecondaries(primary, 8, s_shape, a));
        HotSpotReplicas.GetSecondaries(primary, 8, s_shape, b);
        Assert.Equal(a, b);
        Assert.All(a, k => Assert.True(s_shape.Contains(k.Home) && k.W == 4242));
        Assert.Equal(8, a.Distinct().Count());
    }

    [Fact]
    public void SecondariesSpreadUniformlyOverTheAxes()
    {
        // 2,000 primaries x 8 secondaries: each of the 20 x-planes gets 800 on average; all stay within 25%.
        var counts = new int[20];
        var secondaries = new KeyCoordinate[8];
        for (var i = 0; i < 2000; i++)
        {
            HotSpotReplicas.GetSecondaries(new KeyCoordinate(i % 20, i / 20 % 20, i / 400, (ushort)i), 8, s_shape, secondaries);
            foreach (var s in secondaries)
            {
                counts[s.X]++;
            }
        }

        Assert.All(counts, c => Assert.InRange(c, 600, 1000));
    }

    [Theory]
    [InlineData(3, 3, 3, 8)]
    [InlineData(8, 8, 8, 8)]
    [InlineData(20, 20, 20, 8)]
    [InlineData(20, 20, 20, 16)]
    [InlineData(16, 10, 4, 8)]
    [InlineData(10, 10, 10, 64)]
    public void PrimaryAndSecondariesAreDistinctServersForEveryPrimary(int x, int y, int z, int k)
    {
        var shape = new TorusShape(x, y, z);
        var secondaries = new KeyCoordinate[k];
        var servers = new HashSet<Coordinate>();
        for (long i = 0; i < shape.ServerCount; i++)
        {
            var home = shape.CoordinateAt(i);
            var primary = new KeyCoordinate(home.X, home.Y, home.Z, (ushort)i);
            HotSpotReplicas.GetSecondaries(primary, k, shape, secondaries);
            servers.Clear();
            servers.Add(primary.Home);
            foreach (var s in secondaries)
            {
                Assert.True(shape.Contains(s.Home) && s.W == primary.W, $"{s} of {primary}");
                servers.Add(s.Home);
            }

            Assert.Equal(k + 1, servers.Count);
        }
    }

    [Fact]
    public void ReplicasLieFarFurtherApartThanRandomPlacesWouldAndEqualForEveryPrimary()
    {
        // symbiotic-routing 3.3: "uniformly distributed within the coordinate space". Nine places
        // picked at random on the 20x20x20 torus have their nearest two about 4.5 hops apart; the
        // lattice keeps every two of its nine 15 apart, around every primary alike.
        var secondaries = new KeyCoordinate[8];
        var leastOfLattice = int.MaxValue;
        var random = new Random(7);
        double randomTotal = 0;
        const int trials = 400;
        for (var t = 0; t < trials; t++)
        {
            var primary = new KeyCoordinate(random.Next(20), random.Next(20), random.Next(20), (ushort)t);
            HotSpotReplicas.GetSecondaries(primary, 8, s_shape, secondaries);
            var least = LeastPairwiseDistance([primary, .. secondaries]);
            Assert.True(leastOfLattice == int.MaxValue || least == leastOfLattice, $"{least} around {primary}, {leastOfLattice} elsewhere");
            leastOfLattice = least;

            KeyCoordinate[] places = [.. Enumerable.Range(0, 9).Select(_ => new KeyCoordinate(random.Next(20), random.Next(20), random.Next(20), 0))];
            randomTotal += LeastPairwiseDistance(places);
        }

        var randomMean = randomTotal / trials;
        Assert.InRange(randomMean, 3, 6);
        Assert.Equal(15, leastOfLattice);
    }

    [Fact]
    public void ClosestReplicaIsChosenAndThePrimaryWinsATie()
    {
        var current = new KeyCoordinate(0, 0, 0, 0);
        var primary = new KeyCoordinate(2, 0, 0, 0);
        var nearer = new KeyCoordinate(1, 0, 0, 0);
        var tied = new KeyCoordinate(0, 2, 0, 0);
        Assert.Equal(nearer, HotSpotReplicas.ChooseClosest(current, primary, [tied, nearer], s_shape, 0));
        Assert.Equal(primary, HotSpotReplicas.ChooseClosest(current, primary, [tied], s_shape, 1));
    }

    [Fact]
    public void TieAmongSecondariesIsBrokenByTheSeededByte()
    {
        var current = new KeyCoordinate(0, 0, 0, 0);
        var primary = new KeyCoordinate(10, 10, 10, 0);
        KeyCoordinate[] tied = [new(1, 0, 0, 0), new(0, 1, 0, 0), new(0, 0, 1, 0)];
        Assert.Equal(tied[0], HotSpotReplicas.ChooseClosest(current, primary, tied, s_shape, 0));
        Assert.Equal(tied[1], HotSpotReplicas.ChooseClosest(current, primary, tied, s_shape, 1));
        Assert.Equal(tied[2], HotSpotReplicas.ChooseClosest(current, primary, tied, s_shape, 5));
    }

    private static int LeastPairwiseDistance(KeyCoordinate[] places)
    {
        var least = int.MaxValue;
        for (var i = 0; i < places.Length; i++)
        {
            for (var j = i + 1; j < places.Length; j++)
            {
                least = Math.Min(least, s_shape.Distance(places[i], places[j]));
            }
        }

        return least;
    }
}
