using System.Collections.Concurrent;

namespace CamCube.Runtime.Routing;

/// <summary>
/// The dense index of every server's neighbour in each direction, one table per shape shared by
/// the whole process (4 bytes per server and direction): the breadth-first searches of link-state
/// routing step to a neighbour with one load instead of a coordinate round trip with divisions.
/// </summary>
internal static class NeighborTable
{
    private static readonly ConcurrentDictionary<TorusShape, int[]> s_byShape = new();

    /// <summary>
    /// Gets the table of <paramref name="shape"/>: entry <c>server * 6 + direction</c> is the
    /// neighbour's index, or -1 where the shape has no link in that direction.
    /// </summary>
    public static int[] For(TorusShape shape) => s_byShape.GetOrAdd(shape, static s => Build(s));

    private static int[] Build(TorusShape shape)
    {
        var table = new int[shape.ServerCount * LinkDirections.Count];
        for (var server = 0; server < shape.ServerCount; server++)
        {
            var coordinate = shape.CoordinateAt(server);
            for (var d = 0; d < LinkDirections.Count; d++)
            {
                var link = (LinkDirection)d;
                table[(server * LinkDirections.Count) + d] = shape.HasLink(link) ? (int)shape.IndexOf(shape.Neighbor(coordinate, link)) : -1;
            }
        }

        return table;
    }
}
