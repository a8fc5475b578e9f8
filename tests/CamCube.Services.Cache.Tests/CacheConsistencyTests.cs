using CamCube.Services.Cache.Tests.Consistency;
using CamCube.Testing.Freshness;
using CamCube.Transport.Faults;
using Xunit.Abstractions;

namespace CamCube.Services.Cache.Tests;

/// <summary>
/// The cache's guarantee, checked on histories: clients on several front-ends of a simulated 3x3x3
/// cube set, delete and read a few hot keys (whose copies sit on secondaries) while frames are
/// lost, duplicated and reordered. Every read must return a value no acknowledged write had
/// superseded before the read began (<see cref="FreshnessChecker"/>), and under loss alone no
/// request may fail while every server is up.
/// </summary>
public sealed class CacheConsistencyTests(ITestOutputHelper output)
{
    private static readonly FaultOptions s_lossy = new() { DropProbability = 0.05 };

    private static readonly FaultOptions s_chaotic = new()
    {
        DropProbability = 0.05,
        DuplicateProbability = 0.02,
        ReorderProbability = 0.05,
        ReorderDelay = TimeSpan.FromMilliseconds(2),
    };

    public static TheoryData<int> Seeds()
    {
        var seeds = new TheoryData<int>();
        for (var seed = 1; seed <= 10; seed++)
        {
            seeds.Add(seed);
        }

        return seeds;
    }

    [Theory]
    [MemberData(nameof(Seeds))]
    public void EveryRequestSucceedsAndNoReadIsStaleWhenFramesAreLostDuplicatedAndReordered(int seed) => AssertSucceedsAndFresh(seed, s_chaotic);

    [Theory]
    [MemberData(nameof(Seeds))]
    public void EveryRequestSucceedsAndNoReadIsStaleWhenFivePercentOfFramesAreLost(int seed) => AssertSucceedsAndFresh(seed, s_lossy);

    private void AssertSucceedsAndFresh(int seed, FaultOptions faults)
    {
        var scenario = Run(seed, faults);
        var violations = FreshnessChecker.Violations(Entries(scenario.History));
        var failed = scenario.History.Where(r => r.Status is not (CacheStatus.Hit or CacheStatus.Miss or CacheStatus.Stored or CacheStatus.Deleted or CacheStatus.NotFound)).ToList();
        foreach (var line in violations.Concat(failed.Select(r => r.ToString())).Take(20))
        {
            output.WriteLine(line);
        }

        Assert.Empty(violations);
        Assert.Empty(failed);
    }

    [Fact]
    public void EveryFrontEndReadsTheNewValueRightAfterAnAcknowledgedSetWithoutFaults()
    {
        // Defect 2 of issue 14: set through the key's root, then read through every front-end, again and again.
        var scenario = new ConsistencyScenario(seed: 3, FaultOptions.None, clients: 6, keys: 1, duration: TimeSpan.FromSeconds(1));
        scenario.Run();
        var history = scenario.History;
        Assert.True(history.Count(r => r.Operation == CacheOperation.Set) > 1_000, $"only {history.Count(r => r.Operation == CacheOperation.Set)} sets ran");
        Assert.Empty(FreshnessChecker.Violations(Entries(history)));
    }

    /// <summary>
    /// Servers other than the front-ends are killed (and come back empty), cut off and reconnected
    /// while the clients run, besides the frames lost, duplicated and reordered: requests may fail and
    /// reads may miss (the items of a failed root are flushed), but no hit may return a value that an
    /// acknowledged write had superseded before the read began.
    /// </summary>
    [Theory]
    [MemberData(nameof(Seeds))]
    public void NoHitIsStaleWhenServersAreKilledRestartedAndCutOff(int seed)
    {
        // Shorter leases and timeouts than the defaults: after each fault, writes wait out a lease
        // and requests to a dead root their timeout, and the clients should still get much done.
        var options = new CacheOptions { CopyLease = TimeSpan.FromMilliseconds(300), RequestTimeout = TimeSpan.FromSeconds(1) };
        var scenario = new ConsistencyScenario(seed, s_chaotic, clients: 6, keys: 3, duration: TimeSpan.FromSeconds(6), serverFaults: true, options);
        scenario.Run();
        var history = scenario.History;
        var hits = history.Count(r => r.Status == CacheStatus.Hit);
        output.WriteLine($"seed {seed}: {history.Count} requests, {hits} hits, {scenario.Kills} kills, {scenario.CutOffs} cut-offs");
        var violations = FreshnessChecker.Violations(Entries(history), missesAllowed: true);
        foreach (var line in violations.Take(20).Concat(violations.Count > 0 ? scenario.FaultLog : []))
        {
            output.WriteLine(line);
        }

        Assert.True(scenario.Kills + scenario.CutOffs >= 5, $"seed {seed}: only {scenario.Kills + scenario.CutOffs} faults");
        Assert.True(hits > 50, $"seed {seed}: only {hits} reads hit; the workload did not exercise the copies");
        Assert.Empty(violations);
    }

    private static List<CacheHistoryEntry> Entries(IReadOnlyList<HistoryRequest> history) => [.. history.Select(r => r.ToEntry())];

    private ConsistencyScenario Run(int seed, FaultOptions faults)
    {
        var scenario = new ConsistencyScenario(seed, faults, clients: 6, keys: 3, duration: TimeSpan.FromSeconds(6));
        scenario.Run();
        var history = scenario.History;
        output.WriteLine($"seed {seed}: {history.Count} requests, {history.Count(r => r.Operation == CacheOperation.Get)} gets, {scenario.Retransmissions} retransmissions, {scenario.FramesDropped} frames dropped by the faults");

        // The faults must have bitten, and the clients must have kept the copies busy.
        Assert.True(scenario.FramesDropped > 100, $"seed {seed}: only {scenario.FramesDropped} frames were dropped");
        Assert.True(scenario.Retransmissions > 10, $"seed {seed}: only {scenario.Retransmissions} requests were sent again");
        Assert.True(history.Count > 150, $"seed {seed}: only {history.Count} requests ran");
        return scenario;
    }
}
