using System.Numerics;
using System.Runtime.InteropServices;

namespace CamCube.Runtime.Routing;

/// <summary>
/// Fills a node's next hops to every server from its neighbours' distances (camcubeos 3.3: the
/// links on a shortest path are those whose neighbour is closest to the destination), a vector of
/// servers at a time.
/// </summary>
internal static class NextHopRow
{
    /// <summary>
    /// Sets <paramref name="hops"/>[t], for every server t, to the links d in <paramref name="usable"/>
    /// whose <paramref name="distances"/>[d][t] is the smallest, or 0 when none of them reaches t.
    /// </summary>
    /// <param name="distances">Per link direction, the distances from that neighbour to every server; read only for the links in <paramref name="usable"/>.</param>
    /// <param name="usable">The link directions to consider, each with a distance array.</param>
    /// <param name="hops">The row to fill, one entry per server.</param>
    public static void Fill(ushort[]?[] distances, ReadOnlySpan<int> usable, Span<byte> hops)
    {
        if (usable.IsEmpty)
        {
            hops.Clear();
            return;
        }

        var done = Vector.IsHardwareAccelerated ? FillVectors(distances, usable, hops) : 0;
        for (var t = done; t < hops.Length; t++)
        {
            var best = RoutingGraph.Unreached;
            var links = 0;
            foreach (var d in usable)
            {
                var distance = distances[d]![t];
                if (distance < best)
                {
                    best = distance;
                    links = 1 << d;
                }
                else if (distance == best)
                {
                    links |= 1 << d;
                }
            }

            hops[t] = best == RoutingGraph.Unreached ? (byte)0 : (byte)links;
        }
    }

    /// <summary>Fills whole pairs of vectors of servers; returns how many servers it filled.</summary>
    private static int FillVectors(ushort[]?[] distances, ReadOnlySpan<int> usable, Span<byte> hops)
    {
        var width = Vector<ushort>.Count;
        var unreached = new Vector<ushort>(RoutingGraph.Unreached);
        var bytes = MemoryMarshal.Cast<byte, Vector<byte>>(hops);
        for (var v = 0; v < bytes.Length; v++)
        {
            var t = v * 2 * width;
            bytes[v] = Vector.Narrow(Links(distances, usable, t, unreached), Links(distances, usable, t + width, unreached));
        }

        return bytes.Length * 2 * width;
    }

    /// <summary>The next hops of the <see cref="Vector{T}.Count"/> servers from <paramref name="t"/>, one per lane.</summary>
    private static Vector<ushort> Links(ushort[]?[] distances, ReadOnlySpan<int> usable, int t, Vector<ushort> unreached)
    {
        var best = unreached;
        foreach (var d in usable)
        {
            best = Vector.Min(best, new Vector<ushort>(distances[d]!.AsSpan(t)));
        }

        var links = Vector<ushort>.Zero;
        foreach (var d in usable)
        {
            var closest = Vector.Equals(new Vector<ushort>(distances[d]!.AsSpan(t)), best);
            links |= closest & new Vector<ushort>((ushort)(1 << d));
        }

        return Vector.AndNot(links, Vector.Equals(best, unreached));
    }
}
