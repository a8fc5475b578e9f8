using CamCube.Runtime.Routing;

namespace CamCube.Runtime.Tests;

/// <summary>The vectorised next-hop row against its definition, one server at a time.</summary>
public class NextHopRowTests
{
    [Theory]
    [InlineData(1, 512, 6)]
    [InlineData(2, 27, 6)]
    [InlineData(3, 100, 3)]
    [InlineData(4, 4096, 5)]
    [InlineData(5, 65, 1)]
    [InlineData(6, 64, 0)]
    public void FillsEveryServerWithTheLinksWhoseNeighbourIsClosestWhenSomeAreUnreached(int seed, int servers, int usableCount)
    {
        // Few distinct distances, so that ties are common, and some servers unreached from some neighbours.
        var random = new Random(seed);
        var distances = new ushort[]?[LinkDirections.Count];
        var usable = new List<int>();
        foreach (var d in Enumerable.Range(0, LinkDirections.Count).OrderBy(_ => random.Next()).Take(usableCount).Order())
        {
            usable.Add(d);
            distances[d] = Enumerable.Range(0, servers)
                .Select(_ => random.Next(5) == 0 ? RoutingGraph.Unreached : (ushort)random.Next(4))
                .ToArray();
        }

        var hops = new byte[servers];
        Array.Fill(hops, (byte)0xAA);
        NextHopRow.Fill(distances, usable.ToArray(), hops);

        for (var t = 0; t < servers; t++)
        {
            var best = usable.Count == 0 ? RoutingGraph.Unreached : usable.Min(d => distances[d]![t]);
            var expected = 0;
            if (best != RoutingGraph.Unreached)
            {
                foreach (var d in usable.Where(d => distances[d]![t] == best))
                {
                    expected |= 1 << d;
                }
            }

            Assert.Equal((byte)expected, hops[t]);
        }
    }
}
