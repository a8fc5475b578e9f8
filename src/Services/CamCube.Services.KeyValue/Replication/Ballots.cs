using System.Numerics;

namespace CamCube.Services.KeyValue.Replication;

/// <summary>
/// Where ballots come from. A take-over picks one higher than every ballot it has seen and above
/// <see cref="FirstWriteMax"/>; a key's first write in one round uses the ballot its primary drew
/// for this life, at or below it. The two ranges never meet, and two servers never draw the same
/// first-write ballot (the server's index is in its low bits), so no two different writes can get
/// one version: a first write is kept before its ballot is known to be free, where a take-over's
/// writes wait for every promise.
/// </summary>
internal static class Ballots
{
    /// <summary>The highest ballot of a first write in one round; every take-over's ballot is above it.</summary>
    public const long FirstWriteMax = 1L << 32;

    /// <summary>
    /// Whether <paramref name="version"/> is that of a key's first write in one round (the first
    /// version of a first-write ballot): a copy a replica kept with its promise, before the primary
    /// knew whether every replica did.
    /// </summary>
    public static bool IsFirstWrite(long version) =>
        Versions.BallotOf(version) is > 0 and <= FirstWriteMax && (version & Versions.SequenceMax) == 1;

    /// <summary>A take-over's ballot: above <paramref name="seen"/>, the highest seen for the key, and above every first write's.</summary>
    public static long Above(long seen) => Math.Max(seen, FirstWriteMax) + 1;

    /// <summary>
    /// The first-write ballot of one life of a server: its index in the low bits, bits of
    /// <paramref name="random"/> above them, from 1 to <see cref="FirstWriteMax"/>. Lives of one
    /// server draw the same one with a chance of one in 2^(32 - index bits).
    /// </summary>
    /// <param name="random">Bits that differ from life to life (<c>NodeLife.Mix</c>).</param>
    /// <param name="serverIndex">The server's index in the torus, from 0.</param>
    /// <param name="serverCount">How many servers the torus has.</param>
    public static long DrawFirstWrite(ulong random, long serverIndex, long serverCount)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(serverCount, 1);
        ArgumentOutOfRangeException.ThrowIfNegative(serverIndex);
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(serverIndex, serverCount);
        var indexBits = 64 - BitOperations.LeadingZeroCount((ulong)Math.Max(1, serverCount - 1));
        var randomBits = 32 - indexBits;
        var drawn = randomBits > 0 ? (long)(random >> (64 - randomBits)) : 0;
        return 1 + ((drawn << indexBits) | serverIndex);
    }
}
