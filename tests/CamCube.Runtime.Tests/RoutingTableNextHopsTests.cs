using CamCube.Runtime.Routing;

namespace CamCube.Runtime.Tests;

/// <summary>Next hops without failures, checked against distances: a link is a next hop exactly when its neighbour is one hop closer.</summary>
public class RoutingTableNextHopsTests
{
    [Theory]
    [InlineData(3, 3, 3)]
    [InlineData(4, 4, 4)]
    [InlineData(5, 2, 3)]
    [InlineData(6, 1, 4)]
    [InlineData(2, 2, 2)]
    public void NextHopsAreTheLinksWhoseNeighbourIsOneHopCloser(int x, int y, int z)
    {
        var shape = new TorusShape(x, y, z);
        byte existing = 0;
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            if (shape.HasLink((LinkDirection)d))
            {
                existing |= (byte)(1 << d);
            }
        }

        for (var s = 0L; s < shape.ServerCount; s++)
        {
            var self = shape.CoordinateAt(s);
            var table = new RoutingTable(shape, self, existing);
            Assert.True(table.IsFailureFree);
            for (var t = 0L; t < shape.ServerCount; t++)
            {
                var target = shape.CoordinateAt(t);
                byte expected = 0;
                for (var d = 0; d < LinkDirections.Count; d++)
                {
                    if ((existing & (1 << d)) != 0 && shape.Distance(shape.Neighbor(self, (LinkDirection)d), target) == shape.Distance(self, target) - 1)
                    {
                        expected |= (byte)(1 << d);
                    }
                }

                Assert.Equal(expected, table.NextHops(target));
                Assert.Equal(expected, table.FailureFreeNextHops(target));
            }
        }
    }
}
