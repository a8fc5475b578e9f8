namespace CamCube.Services.KeyValue.Replication;

/// <summary>
/// A version is the ballot of the primary that wrote it (high bits) and a sequence number within
/// that ballot (low <see cref="SequenceBits"/> bits): a new primary's ballot is higher than every
/// ballot before it, so its versions continue above every version written before the fail-over,
/// and of two writes the one of the later primary wins (as Paxos picks the highest ballot's value).
/// </summary>
internal static class Versions
{
    /// <summary>The bits of the sequence number within a ballot.</summary>
    public const int SequenceBits = 24;

    /// <summary>The last sequence number of a ballot; past it the primary takes a new ballot.</summary>
    public const long SequenceMax = (1L << SequenceBits) - 1;

    /// <summary>The largest ballot a version can carry.</summary>
    public const long BallotMax = long.MaxValue >> SequenceBits;

    /// <summary>Gets the ballot that wrote a version (0 for version 0, "never written").</summary>
    public static long BallotOf(long version) => version >> SequenceBits;

    /// <summary>Gets the version a primary holding <paramref name="ballot"/> gives the next write after <paramref name="held"/>, or 0 when the ballot has no sequence numbers left.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The ballot is below the held version's or out of range.</exception>
    public static long Next(long held, long ballot)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(ballot, Math.Max(1, BallotOf(held)));
        ArgumentOutOfRangeException.ThrowIfGreaterThan(ballot, BallotMax);
        if (BallotOf(held) < ballot)
        {
            return (ballot << SequenceBits) | 1;
        }

        return (held & SequenceMax) == SequenceMax ? 0 : held + 1;
    }
}
