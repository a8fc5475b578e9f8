using CamCube.Services.Cache.Tests.Consistency;
using CamCube.Transport.Simulation.Faults;
using Xunit.Abstractions;

namespace CamCube.Services.Cache.Tests;

/// <summary>
/// Every request completes while every node's transport drops, duplicates and reorders frames at
/// once, not only under loss alone (<see cref="CacheConsistencyTests"/>): a duplicated or late
/// frame must not strand the frames behind it, which would show as a front-end whose requests
/// time out although all 27 servers are up and reachable.
/// </summary>
public sealed class CacheUnderChaosTests(ITestOutputHelper output)
{
    [Theory]
    [MemberData(nameof(CacheConsistencyTests.Seeds), MemberType = typeof(CacheConsistencyTests))]
    public void EveryRequestSucceedsWhenFramesAreLostDuplicatedAndReordered(int seed)
    {
        var faults = new FaultOptions { DropProbability = 0.05, DuplicateProbability = 0.02, ReorderProbability = 0.05, ReorderDelay = TimeSpan.FromMilliseconds(2) };
        var scenario = new ConsistencyScenario(seed, faults, clients: 6, keys: 3, duration: TimeSpan.FromSeconds(6));
        scenario.Run();
        var history = scenario.History;
        var failed = history.Where(r => r.Status is not (CacheStatus.Hit or CacheStatus.Miss or CacheStatus.Stored or CacheStatus.Deleted or CacheStatus.NotFound)).ToList();
        output.WriteLine($"seed {seed}: {history.Count} requests, {scenario.Retransmissions} retransmissions, at most {history.Max(r => r.Retransmissions)} for one request");
        foreach (var request in failed.Take(20))
        {
            output.WriteLine(request.ToString());
        }

        Assert.True(history.Count > 150, $"seed {seed}: only {history.Count} requests ran");
        Assert.Empty(failed);
    }
}
