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
}
