namespace CamCube.Services.Cache;

/// <summary>
/// The hot-spot function (symbiotic-routing 3.3, camcubeos 5.1): given a key's primary key
/// coordinate (its memId), the number k and the torus shape, it returns k secondary key
/// coordinates spread uniformly over the key space. Every node computes the same ones.
/// </summary>
public static class HotSpotReplicas
{
    /// <summary>The largest k the function serves.</summary>
    public const int SecondaryCountMax = 64;

    /// <summary>The lattice generator of the last shape and k asked for; every node of a cube asks the same.</summary>
    private static Lattice? s_lattice;

    /// <summary>
    /// Writes the <paramref name="k"/> secondary key coordinates of <paramref name="primary"/> into
    /// <paramref name="destination"/> and returns k. The primary and its secondaries are the k + 1
    /// points of a rank-1 lattice on the torus, translated to the primary: point i is offset by
    /// <c>floor(i * g * size / (k + 1))</c> on each axis, with the Korobov generator
    /// <c>g = (1, a, a^2 mod (k + 1))</c> whose points lie farthest apart (the least rectilinear
    /// distance between two of them, then their total distance, then the smallest a). So the
    /// replicas are evenly spread over the key space around every primary, and uniform over all
    /// primaries, as symbiotic-routing 3.3 asks, and every node computes the same ones. They keep
    /// the primary's <c>w</c>, so a failed server's share of them spreads over its neighbours as its keys do.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">k is negative or above <see cref="SecondaryCountMax"/>, or the destination is too short.</exception>
    public static int GetSecondaries(KeyCoordinate primary, int k, TorusShape shape, Span<KeyCoordinate> destination)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(k);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(k, SecondaryCountMax);
        ArgumentOutOfRangeException.ThrowIfLessThan(destination.Length, k, nameof(destination));
        if (k == 0)
        {
            return 0;
        }

        // Found once per shape and k (a few microseconds for k = 8), then read without a lock.
        var lattice = s_lattice;
        if (lattice is null || lattice.K != k || lattice.Shape != shape)
        {
            s_lattice = lattice = new Lattice(shape, k, BestGenerator(shape, k + 1));
        }

        for (var i = 1; i <= k; i++)
        {
            var offset = Offset(shape, k + 1, lattice.Generator, i);
            destination[i - 1] = new KeyCoordinate(
                (primary.X + offset.X) % shape.X,
                (primary.Y + offset.Y) % shape.Y,
                (primary.Z + offset.Z) % shape.Z,
                primary.W);
        }

        return k;
    }

    /// <summary>
    /// Picks the replica a read from <paramref name="current"/> goes via: the closest of the primary
    /// and its secondaries by rectilinear distance; on a tie the primary if it is among the closest,
    /// otherwise the tied secondary that <paramref name="tieBreak"/> (a seeded random byte) picks.
    /// </summary>
    public static KeyCoordinate ChooseClosest(KeyCoordinate current, KeyCoordinate primary, ReadOnlySpan<KeyCoordinate> secondaries, TorusShape shape, byte tieBreak)
    {
        var best = shape.Distance(current, primary);
        var ties = 0;
        foreach (var s in secondaries)
        {
            var d = shape.Distance(current, s);
            if (d < best)
            {
                best = d;
                ties = 1;
            }
            else if (d == best && ties > 0)
            {
                ties++;
            }
        }

        if (ties == 0)
        {
            return primary;
        }

        var pick = tieBreak % ties;
        foreach (var s in secondaries)
        {
            if (shape.Distance(current, s) == best && pick-- == 0)
            {
                return s;
            }
        }

        return primary;
    }

    /// <summary>Point <paramref name="i"/> of the n-point lattice with generator (1, a, a^2 mod n), as an offset from point 0.</summary>
    private static Coordinate Offset(TorusShape shape, int n, int a, int i) => new(
        (int)((long)i * shape.X / n % shape.X),
        (int)((long)i * a * shape.Y / n % shape.Y),
        (int)((long)i * (a * a % n) * shape.Z / n % shape.Z));

    /// <summary>The a whose n-point lattice has the largest least pairwise distance, then the largest total; the smallest such a.</summary>
    private static int BestGenerator(TorusShape shape, int n)
    {
        var best = 1;
        (long Least, long Total) bestScore = (-1, -1);
        Span<Coordinate> points = stackalloc Coordinate[SecondaryCountMax + 1];
        for (var a = 1; a < n; a++)
        {
            for (var i = 0; i < n; i++)
            {
                points[i] = Offset(shape, n, a, i);
            }

            (long Least, long Total) score = (long.MaxValue, 0);
            for (var i = 0; i < n; i++)
            {
                for (var j = i + 1; j < n; j++)
                {
                    long d = shape.Distance(points[i], points[j]);
                    score = (Math.Min(score.Least, d), score.Total + d);
                }
            }

            if (score.Least > bestScore.Least || (score.Least == bestScore.Least && score.Total > bestScore.Total))
            {
                (best, bestScore) = (a, score);
            }
        }

        return best;
    }

    private sealed record Lattice(TorusShape Shape, int K, int Generator);
}
