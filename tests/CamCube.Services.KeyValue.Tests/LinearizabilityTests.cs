using CamCube.Messaging;
using CamCube.Services.KeyValue.Tests.Simulation;
using CamCube.Testing.Linearizability;
using Xunit.Abstractions;

namespace CamCube.Services.KeyValue.Tests;

public sealed class LinearizabilityTests(ITestOutputHelper output)
{
    /// <summary>A bound on each key's search: with writes placed in version order a correct run explores about one state per operation (at most two in 1,850 seeds of these workloads); a broken one would search for minutes.</summary>
    private const long StatesExploredMax = 1_000_000;

    /// <summary>Frames lost, duplicated, and held back so that later ones overtake them.</summary>
    private static readonly Transport.Faults.FaultOptions s_frameFaults = new() { DropProbability = 0.01, DuplicateProbability = 0.01, ReorderProbability = 0.2, ReorderDelay = TimeSpan.FromMilliseconds(2) };

    public static TheoryData<int> Seeds => [.. Enumerable.Range(1, 8)];

    [Theory]
    [MemberData(nameof(Seeds))]
    public void RegisterHistoryIsLinearizablePerKeyWhenServersAreKilledRestartedAndCutOff(int seed) =>
        Check(new RegisterWorkload(seed), seed);

    [Theory]
    [InlineData(51)]
    [InlineData(52)]
    public void RegisterHistoryIsLinearizablePerKeyWithBestEffortMessagesWhenServersAreKilledRestartedAndCutOff(int seed) =>
        Check(new RegisterWorkload(seed, RegisterWorkload.StoreOptions with { Delivery = MessageDelivery.BestEffort }), seed);

    /// <summary>
    /// The store on the reliable transport while every node loses, duplicates and holds back frames
    /// (so later ones overtake them), besides the kills and cut-offs. Fewer operations complete (750 to
    /// 3,500 in the 2 s), and front-end leases are seldom taken here (the workload's writes keep
    /// fencing them); two writes of a key through one server answered out of order are checked by
    /// <see cref="FrontEndLeaseTests"/>. 5 of 12 of these seeds failed when the primary first sent
    /// a write's accepts while holders were still dropping their leases, because requests could then
    /// run at two roots and write ids were forgotten (docs/decisions.md). Seed 182
    /// failed when a promise carried only its key's newest eight write ids: a compare-and-swap whose
    /// answer was lost was asked again, after many later writes, of its primary that had restarted.
    /// </summary>
    [Theory]
    [InlineData(71)]
    [InlineData(72)]
    [InlineData(73)]
    [InlineData(74)]
    [InlineData(75)]
    [InlineData(76)]
    [InlineData(77)]
    [InlineData(78)]
    [InlineData(182)]
    public void RegisterHistoryIsLinearizablePerKeyWhenFramesAreLostDuplicatedAndReorderedAndServersFail(int seed) =>
        Check(new RegisterWorkload(seed, frameFaults: s_frameFaults), seed);

    /// <summary>
    /// Four clients on each of the five nodes, with the frame faults and server failures above: more
    /// operations of a key in flight at once. Before the checker placed reads as soon as they fitted,
    /// most of these histories were too big for it (inconclusive at its bound). Seed 17 found a
    /// write run twice: every server that noted its id had died or restarted with an empty disk, one
    /// at a time, and the restarted ones had caught up on the key's newest value only (catch-up
    /// offers now carry the ids). Seed 6562 found a first write kept only by its primary, adopted by the
    /// primary's next take-over without its id noted, and run a second time when asked again.
    /// </summary>
    [Theory]
    [InlineData(17)]
    [InlineData(6562)]
    [InlineData(91)]
    [InlineData(92)]
    [InlineData(93)]
    [InlineData(94)]
    public void RegisterHistoryIsLinearizablePerKeyWithFourClientsPerNodeWhenFramesAreLostDuplicatedAndReorderedAndServersFail(int seed) =>
        Check(new RegisterWorkload(seed, clientsPerNode: 4, frameFaults: s_frameFaults), seed);

    /// <summary>
    /// Six clients on each of the five nodes, all on one key, with the frame faults and server
    /// failures above. Before the checker tried the operations that return soonest first, 125 of
    /// 150 of these histories were too big for it.
    /// The key is hot: its unconditional sets wait for its turns together and are written a group
    /// per round, which the test requires to have happened. Seed 51037 found a set superseded in its
    /// round written a second time: its primary died before the answer reached the front-end, and
    /// only that primary had noted the set's id (the accept now carries the superseded sets' ids).
    /// </summary>
    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(51037)]
    public void RegisterHistoryOfThirtyClientsOnOneKeyIsLinearizableWhenFramesAreLostDuplicatedAndReorderedAndServersFail(int seed)
    {
        var workload = new RegisterWorkload(seed, keyCount: 1, clientsPerNode: 6, frameFaults: s_frameFaults);
        Check(workload, seed);
        var superseded = workload.Cube.LiveNodes.Sum(node => node.GetService<KeyValueService>()!.Statistics.WritesSupersededInTheirRound);
        output.WriteLine($"seed {seed}: {superseded} writes superseded in their round, at the live servers");
        Assert.True(superseded > 0, $"seed {seed}: no sets were written together; the workload did not exercise them.");
    }

    /// <summary>
    /// Sixty-four keys, so that many writes are a key's first: an unconditional put of a key its
    /// primary has never seen goes with the take-over (<see cref="KeyValueServiceOptions.FirstWriteInOneRound"/>),
    /// and is kept by the replicas that have never seen it either, before the primary knows its
    /// ballot is free; with the frame faults and server failures above, some meet replicas that know
    /// the key (a primary back with an empty disk) and the key is taken over first.
    /// </summary>
    [Theory]
    [InlineData(401)]
    [InlineData(402)]
    [InlineData(403)]
    [InlineData(404)]
    public void RegisterHistoryIsLinearizablePerKeyWhenManyKeysAreFirstWrittenInOneRoundWhileFramesAreLostAndServersFail(int seed)
    {
        var workload = new RegisterWorkload(seed, keyCount: 64, clientsPerNode: 4, frameFaults: s_frameFaults);
        Check(workload, seed);
        var inOneRound = workload.Cube.LiveNodes.Sum(node => node.GetService<KeyValueService>()!.Statistics.FirstWritesInOneRound);
        var takenOverFirst = workload.Cube.LiveNodes.Sum(node => node.GetService<KeyValueService>()!.Statistics.FirstWritesTakenOverFirst);
        output.WriteLine($"seed {seed}: {inOneRound} first writes in one round, {takenOverFirst} taken over first, at the live servers");
        Assert.True(inOneRound > 0, $"seed {seed}: no first write went with its take-over; the workload did not exercise them.");
    }

    /// <summary>
    /// Eight keys that the clients mostly read (99 or 99.5 operations in 100), with the frame faults
    /// and server failures above: a key goes unwritten for longer than its lease, so its primary
    /// answers reads under leases renewed in bulk, while kills, cut-offs and restarts move keys to new
    /// primaries that must wait out or be given the old primary's renewed leases. Without front-end
    /// leases every read reaches the primary. Seed 2161 without front-end leases overflowed the stack:
    /// a renewal that failed at once (its replica just became unreachable) was sent again at once.
    /// </summary>
    [Theory]
    [InlineData(301, true, 0.99)]
    [InlineData(302, true, 0.99)]
    [InlineData(303, true, 0.99)]
    [InlineData(2161, false, 0.995)]
    [InlineData(2162, false, 0.995)]
    public void RegisterHistoryIsLinearizablePerKeyWhenMostlyReadKeysAreServedUnderRenewedLeasesAndServersFail(int seed, bool frontEndLeases, double readShare)
    {
        var options = RegisterWorkload.StoreOptions with { FrontEndLease = frontEndLeases ? RegisterWorkload.StoreOptions.FrontEndLease : TimeSpan.Zero };
        var workload = new RegisterWorkload(seed, options, keyCount: 8, frameFaults: s_frameFaults, readShare: readShare);
        Check(workload, seed);
        var renewed = workload.Cube.LiveNodes.Sum(node => node.GetService<KeyValueService>()!.Statistics.ReadsUnderRenewedLease);
        output.WriteLine($"seed {seed}: {renewed} reads under renewed leases at the live servers");
        Assert.True(renewed > 0, $"seed {seed}: no read was answered under a renewed lease; the workload did not exercise renewals.");
    }

    private void Check(RegisterWorkload workload, int seed)
    {
        var history = workload.Run(TimeSpan.FromSeconds(2));

        var results = LinearizabilityChecker.CheckEachKey(RegisterSpecification.Instance, history, op => op.Input.Key, StatesExploredMax);
        var completed = history.Count(op => op.Completed);
        output.WriteLine($"seed {seed}: {history.Count} operations ({completed} answered), {workload.Faults.Kills} kills ({workload.Faults.Wipes} back with an empty disk), {workload.Faults.Partitions} cut-offs");
        foreach (var (key, result) in results)
        {
            output.WriteLine($"  key {key}: {result}");
        }

        Assert.True(completed > 300, $"seed {seed}: only {completed} operations answered; the workload did not exercise the store.");
        Assert.True(workload.Faults.Kills + workload.Faults.Partitions >= 3, $"seed {seed}: too few faults.");
        Assert.All(results, pair => Assert.True(pair.Value.Verdict == LinearizabilityVerdict.Linearizable, $"seed {seed}, key {pair.Key}: {pair.Value}"));
    }
}
