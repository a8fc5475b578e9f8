namespace CamCube.Experiments.Tests;

public class ZipfSamplerTests
{
    [Fact]
    public void ProbabilitiesFollowTheInversePowerOfTheRankAndSumToOne()
    {
        var zipf = new ZipfSampler(1_000, 1.5);
        var sum = 0.0;
        for (var r = 1; r <= zipf.Count; r++)
        {
            sum += zipf.Probability(r);
        }

        Assert.Equal(1.0, sum, 12);
        Assert.Equal(Math.Pow(2, 1.5), zipf.Probability(1) / zipf.Probability(2), 9);
        Assert.Equal(Math.Pow(10, 1.5), zipf.Probability(10) / zipf.Probability(100), 9);
    }

    [Fact]
    public void DrawsMatchTheProbabilitiesWhenManyAreTaken()
    {
        const int Draws = 200_000;
        var zipf = new ZipfSampler(10_000, 1.5);
        var counts = new int[zipf.Count + 1];
        var random = new Random(Seeds.For(3, default));
        for (var i = 0; i < Draws; i++)
        {
            var rank = zipf.Next(random);
            Assert.InRange(rank, 1, zipf.Count);
            counts[rank]++;
        }

        // Within 5 standard deviations of the binomial counts, for the ranks with most weight.
        foreach (var rank in new[] { 1, 2, 3, 10 })
        {
            var p = zipf.Probability(rank);
            var slack = 5 * Math.Sqrt(Draws * p * (1 - p));
            Assert.InRange(counts[rank], (Draws * p) - slack, (Draws * p) + slack);
        }
    }

    [Fact]
    public void TheSameSeedDrawsTheSameRanks()
    {
        var zipf = new ZipfSampler(500, 1.5);
        var a = new Random(Seeds.For(9, default));
        var b = new Random(Seeds.For(9, default));
        for (var i = 0; i < 1_000; i++)
        {
            Assert.Equal(zipf.Next(a), zipf.Next(b));
        }
    }

    [Fact]
    public void OneRankIsAlwaysDrawnWhenThereIsOnlyOne()
    {
        var zipf = new ZipfSampler(1, 1.5);
        var random = new Random(Seeds.For(1, default));
        Assert.Equal(1.0, zipf.Probability(1));
        Assert.Equal(1, zipf.Next(random));
    }
}
