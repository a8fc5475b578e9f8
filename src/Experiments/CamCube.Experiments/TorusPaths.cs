namespace CamCube.Experiments;

/// <summary>
/// Path statistics of a torus with some servers failed, from breadth-first searches over the links
/// between live servers: the capacity bound of all-to-all traffic (camcubeos 4.2.3).
/// </summary>
public sealed class TorusPaths
{
    private TorusPaths(int liveServers, long directedLinks, long reachablePairs, long hopSum)
    {
        LiveServers = liveServers;
        DirectedLinks = directedLinks;
        ReachablePairs = reachablePairs;
        HopSum = hopSum;
    }

    /// <summary>Gets the number of live servers.</summary>
    public int LiveServers { get; }

    /// <summary>Gets the number of link directions between two live servers (each cable counts twice).</summary>
    public long DirectedLinks { get; }

    /// <summary>Gets the number of ordered pairs of distinct live servers that can reach each other.</summary>
    public long ReachablePairs { get; }

    /// <summary>Gets the sum of shortest-path hop counts over those pairs.</summary>
    public long HopSum { get; }

    /// <summary>Gets the mean shortest-path hop count between two distinct live servers.</summary>
    public double MeanHops => ReachablePairs == 0 ? 0 : (double)HopSum / ReachablePairs;

    /// <summary>
    /// Gets the most each live server can send to all others at an even rate: the live links'
    /// capacity shared by every bit's hops, <c>links * rate / (servers * mean hops)</c>, in bits per second.
    /// </summary>
    public double AllToAllBoundBitsPerSecond(long linkBitsPerSecond) =>
        HopSum == 0 ? 0 : DirectedLinks * (double)linkBitsPerSecond * ReachablePairs / LiveServers / HopSum;

    /// <summary>Measures <paramref name="shape"/> with the servers <paramref name="alive"/> says are alive.</summary>
    public static TorusPaths Measure(TorusShape shape, IReachabilityView alive)
    {
        ArgumentNullException.ThrowIfNull(alive);
        var count = (int)shape.ServerCount;
        var live = new bool[count];
        var liveCount = 0;
        for (var i = 0; i < count; i++)
        {
            live[i] = alive.IsReachable(shape.CoordinateAt(i));
            liveCount += live[i] ? 1 : 0;
        }

        var neighbors = new int[count * LinkDirections.Count];
        long directedLinks = 0;
        for (var i = 0; i < count; i++)
        {
            var self = shape.CoordinateAt(i);
            for (var d = 0; d < LinkDirections.Count; d++)
            {
                var n = shape.HasLink((LinkDirection)d) ? (int)shape.IndexOf(shape.Neighbor(self, (LinkDirection)d)) : -1;
                neighbors[(i * LinkDirections.Count) + d] = n >= 0 && live[i] && live[n] ? n : -1;
                directedLinks += neighbors[(i * LinkDirections.Count) + d] >= 0 ? 1 : 0;
            }
        }

        // Without failures every server sees the same distances (the torus is vertex-transitive): one search will do.
        var sources = liveCount == count ? 1 : count;
        var distance = new int[count];
        var queue = new int[count];
        long pairs = 0;
        long hops = 0;
        for (var source = 0; source < sources; source++)
        {
            if (!live[source])
            {
                continue;
            }

            Array.Fill(distance, -1);
            distance[source] = 0;
            int head = 0, tail = 0;
            queue[tail++] = source;
            while (head < tail)
            {
                var at = queue[head++];
                for (var d = 0; d < LinkDirections.Count; d++)
                {
                    var n = neighbors[(at * LinkDirections.Count) + d];
                    if (n >= 0 && distance[n] < 0)
                    {
                        distance[n] = distance[at] + 1;
                        hops += distance[n];
                        pairs++;
                        queue[tail++] = n;
                    }
                }
            }
        }

        var scale = sources == 1 ? count : 1;
        return new TorusPaths(liveCount, directedLinks, pairs * scale, hops * scale);
    }
}
