using CamCube.Testing.Freshness;

namespace CamCube.Runtime.Tests.Freshness;

public sealed class FreshnessCheckerTests
{
    [Fact]
    public void ReadOfAValueSupersededBeforeTheReadBeganIsStale()
    {
        var history = new[] { Set(0, "a", 0, 1), Set(0, "b", 2, 3), Hit(1, "a", 4, 5) };

        var violation = Assert.Single(FreshnessChecker.Violations(history));

        Assert.Contains("stale, superseded by client 0 Set k=b", violation, StringComparison.Ordinal);
    }

    [Fact]
    public void ReadConcurrentWithTheNewerWriteMayReturnEitherValue()
    {
        var history = new[] { Set(0, "a", 0, 1), Set(0, "b", 2, 6), Hit(1, "a", 3, 4), Hit(2, "b", 3, 5) };

        Assert.Empty(FreshnessChecker.Violations(history));
    }

    [Fact]
    public void ReadOfAValueNobodyWroteIsReported()
    {
        var history = new[] { Set(0, "a", 0, 1), Hit(1, "z", 2, 3) };

        Assert.Contains("no write produced this value", Assert.Single(FreshnessChecker.Violations(history)), StringComparison.Ordinal);
    }

    [Fact]
    public void WriteNeverAcknowledgedMayBeReadButSupersedesNothing()
    {
        var unknown = new CacheHistoryEntry(0, "k", CacheHistoryOperation.Set, "b", CacheHistoryOutcome.Unknown, 2, long.MaxValue);
        var history = new[] { Set(0, "a", 0, 1), unknown, Hit(1, "b", 3, 4), Hit(2, "a", 5, 6) };

        Assert.Empty(FreshnessChecker.Violations(history));
    }

    [Fact]
    public void MissAfterAnAcknowledgedSetIsStaleUnlessMissesAreAllowed()
    {
        var history = new[] { Set(0, "a", 0, 1), Miss(1, 2, 3) };

        Assert.Single(FreshnessChecker.Violations(history));
        Assert.Empty(FreshnessChecker.Violations(history, missesAllowed: true));
    }

    [Fact]
    public void MissAfterAnAcknowledgedDeleteIsFreshAndAHitOfTheDeletedValueIsNot()
    {
        var delete = new CacheHistoryEntry(0, "k", CacheHistoryOperation.Delete, null, CacheHistoryOutcome.Acknowledged, 2, 3);
        var history = new[] { Set(0, "a", 0, 1), delete, Miss(1, 4, 5), Hit(2, "a", 6, 7) };

        var violation = Assert.Single(FreshnessChecker.Violations(history));

        Assert.StartsWith("client 2 Get k [6, 7] -> Hit a", violation, StringComparison.Ordinal);
    }

    private static CacheHistoryEntry Set(int client, string value, long from, long to) =>
        new(client, "k", CacheHistoryOperation.Set, value, CacheHistoryOutcome.Acknowledged, from, to);

    private static CacheHistoryEntry Hit(int client, string value, long from, long to) =>
        new(client, "k", CacheHistoryOperation.Get, value, CacheHistoryOutcome.Hit, from, to);

    private static CacheHistoryEntry Miss(int client, long from, long to) =>
        new(client, "k", CacheHistoryOperation.Get, null, CacheHistoryOutcome.Miss, from, to);
}
