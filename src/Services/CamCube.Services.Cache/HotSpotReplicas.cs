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

    private const ulong Golden = 0x9E3779B97F4A7C15UL;

    /// <summary>
    /// Writes the <paramref name="k"/> secondary key coordinates of <paramref name="primary"/> into
    /// <paramref name="destination"/> and returns k. Each one is a SplitMix64 hash of the primary and
    /// the replica's index, mapped to a coordinate by the keyspace's multiply-shift (DESIGN.md 4), so
    /// they are uniform and deterministic. They keep the primary's <c>w</c>, so a failed server's
    /// share of them spreads over its neighbours as its keys do.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">k is negative or above <see cref="SecondaryCountMax"/>, or the destination is too short.</exception>
    public static int GetSecondaries(KeyCoordinate primary, int k, TorusShape shape, Span<KeyCoordinate> destination)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(k);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(k, SecondaryCountMax);
        ArgumentOutOfRangeException.ThrowIfLessThan(destination.Length, k, nameof(destination));
        var seed = ((ulong)(uint)primary.X << 48) ^ ((ulong)(uint)primary.Y << 32) ^ ((ulong)(uint)primary.Z << 16) ^ primary.W;
        for (var i = 0; i < k; i++)
        {
            var h = Mix(seed + ((ulong)(i + 1) * Golden));
            destination[i] = new KeyCoordinate(
                (int)((((h >> 48) & 0xFFFF) * (ulong)shape.X) >> 16),
                (int)((((h >> 32) & 0xFFFF) * (ulong)shape.Y) >> 16),
                (int)((((h >> 16) & 0xFFFF) * (ulong)shape.Z) >> 16),
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

    private static ulong Mix(ulong z)
    {
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
        return z ^ (z >> 31);
    }
}
