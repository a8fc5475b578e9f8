using CamCube.Testing;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>camcubeos 5.2: a server back before t moves only what it missed; one gone longer is re-replicated at t and recovers what changed when it rejoins.</summary>
public sealed class BytesMovedTests
{
    private const int KeyCount = 90;
    private const int FirstValueBytes = 100;
    private const int NewValueBytes = 300;
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_victim = new(1, 1, 1);
    private static readonly Coordinate s_client = new(0, 0, 0);
    private static readonly Key[] s_keys = [.. Enumerable.Range(0, KeyCount).Select(i => Key.FromString($"moved-{i}"))];
    private static readonly Key[] s_victimKeys = [.. s_keys.Where(key => KeySpace.For(s_shape).GetServersForKey(key, 3).Contains(s_victim))];

    /// <summary>Keys enough that, one key an offer, each peer's copy to the victim is many offers in a row.</summary>
    private static readonly Key[] s_longCopyKeys = [.. Enumerable.Range(0, 600).Select(i => Key.FromString($"long-copy-{i}"))];
    private static readonly Key[] s_longCopyVictimKeys = [.. s_longCopyKeys.Where(key => KeySpace.For(s_shape).GetServersForKey(key, 3).Contains(s_victim))];

    /// <summary>A fault decorator that only delays frames by 1 µs: in place on every node, so a test can make one lose frames.</summary>
    private static readonly Transport.Faults.FaultOptions s_noFrameFaults = new() { Delay = TimeSpan.FromMicroseconds(1) };

    [Fact]
    public async Task ServerBackBeforeTCatchesUpOnlyOnTheKeysWrittenWhileItWasAway()
    {
        var store = await StartWithKeysAsync(TimeSpan.FromSeconds(180));
        store.Cube.Kill(s_victim);
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        var rewritten = await RewriteSomeKeysAsync(store);
        store.Cube.RunFor(TimeSpan.FromSeconds(60));

        store.Cube.Restart(s_victim);
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        store.Cube.RunFor(TimeSpan.FromSeconds(2));

        var missed = s_victimKeys.Intersect(rewritten).Count();
        Assert.True(missed >= 3, $"only {missed} of the victim's {s_victimKeys.Length} keys were rewritten");
        var victim = store[s_victim].Statistics;
        Assert.Equal(missed, victim.KeysReceived);
        Assert.Equal(missed * NewValueBytes, victim.BytesReceived);
        Assert.Equal(missed, Sum(store, s => s.CatchUpKeysSent));
        Assert.Equal(missed * NewValueBytes, Sum(store, s => s.CatchUpBytesSent));
        Assert.Equal(0, Sum(store, s => s.ReReplicationKeysSent));
        Assert.All(s_victimKeys, key => Assert.Equal(ExpectedBytes(key, rewritten), store.DiskOf(s_victim).Read(key)!.Value!.Length));
    }

    [Fact]
    public async Task ServerGoneLongerThanTIsReReplicatedAtTAndRecoversWhatChangedWhenItRejoins()
    {
        var t = TimeSpan.FromSeconds(30);
        var store = await StartWithKeysAsync(t);
        store.Cube.Kill(s_victim);
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        store.Cube.RunFor(t - TimeSpan.FromSeconds(1));
        Assert.Equal(0, Sum(store, s => s.ReReplicationKeysSent));

        store.Cube.RunFor(TimeSpan.FromSeconds(2));
        Assert.Equal(s_victimKeys.Length, Sum(store, s => s.ReReplicationKeysSent));
        Assert.Equal(s_victimKeys.Length * FirstValueBytes, Sum(store, s => s.ReReplicationBytesSent));
        var live = KeySpace.For(s_shape);
        Assert.All(s_keys, key => Assert.Equal(3, store.Cube.LiveNodes.Count(node => store.DiskOf(node.Self).Read(key) is not null && node.Self != s_victim && Array.IndexOf(live.GetServersForKey(key, 3, node.Reachability), node.Self) >= 0)));

        var rewritten = await RewriteSomeKeysAsync(store);
        store.Cube.Restart(s_victim);
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        store.Cube.RunFor(TimeSpan.FromSeconds(2));

        var missed = s_victimKeys.Intersect(rewritten).Count();
        Assert.Equal(missed, store[s_victim].Statistics.KeysReceived);
        Assert.Equal(missed * NewValueBytes, store[s_victim].Statistics.BytesReceived);
        Assert.Equal(s_victimKeys.Length, Sum(store, s => s.ReReplicationKeysSent));
        Assert.All(s_victimKeys, key => Assert.Equal(ExpectedBytes(key, rewritten), store.DiskOf(s_victim).Read(key)!.Value!.Length));
    }

    /// <summary>
    /// Two servers die at once, the victim and another server that is not its neighbour (a server
    /// restarting beside a dead one may show it reachable for a moment, which restarts its t), and
    /// the victim comes back before t. Keys whose set held the victim and then the other are
    /// re-replicated at t to the stand-ins of the other, still gone (before, a copy was planned under
    /// the failed server its replacement first stood in for alone, the first failed of its set, and
    /// that server's return called it off though the replacement stayed in the set for the other;
    /// those keys stayed on two servers for as long as the other was away).
    /// </summary>
    [Fact]
    public async Task KeysOfTwoServersThatDiedAtOnceAreReReplicatedAtTToTheStandInsOfTheOneStillGoneWhenTheOtherCameBack()
    {
        var t = TimeSpan.FromSeconds(30);
        var space = KeySpace.For(s_shape);
        var candidates = Enumerable.Range(0, 5_000).Select(i => Key.FromString($"pair-{i}")).ToArray();
        var other = candidates.Select(key => space.GetServersForKey(key, 3)).Where(set => set[0] != s_victim && set[1] == s_victim)
            .Select(set => set[2]).Where(server => server != s_client && !IsNeighbour(server, s_victim))
            .GroupBy(server => server).OrderByDescending(group => group.Count()).First().Key;
        Key[] pairKeys = [.. candidates.Where(key => space.GetServersForKey(key, 3) is var set && set[0] != s_client && set[1] == s_victim && set[2] == other).Take(4)];
        Assert.True(pairKeys.Length >= 2, $"only {pairKeys.Length} keys have the victim and then {other} in their set");
        var store = await StartWithKeysAsync(t, keys: [.. s_keys, .. pairKeys]);

        store.Cube.Kill(s_victim);
        store.Cube.Kill(other);
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        store.Cube.RunFor(TimeSpan.FromSeconds(1));
        store.Cube.Restart(s_victim);
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        store.Cube.RunFor(t);

        var view = store.Cube[s_client].Reachability;
        var missing = pairKeys.SelectMany(key => space.GetServersForKey(key, 3, view).Where(server => store.DiskOf(server).Read(key) is null).Select(server => $"{key} at {server}")).ToList();
        Assert.Empty(missing);
    }

    [Fact]
    public async Task ServerBackWithAnEmptyDiskIsCaughtUpWithoutWaitingForAReplicationTimeout()
    {
        var store = await StartWithKeysAsync(TimeSpan.FromSeconds(180));
        store.Cube.Kill(s_victim);
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));

        // Its peers last heard from its earlier life; what they offer reaches the new one at once.
        store.Wipe(s_victim);
        store.Cube.Restart(s_victim);
        var started = store.Cube.Elapsed;
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        var converged = store.Cube.Elapsed - started;

        var timeout = KeyValueServiceOptions.Default.ReplicationTimeout;
        Assert.True(
            store.Cube.RunUntil(() => s_victimKeys.All(key => store.DiskOf(s_victim).Read(key) is not null), timeout / 2),
            $"{s_victimKeys.Count(key => store.DiskOf(s_victim).Read(key) is null)} of its {s_victimKeys.Length} keys were still missing half a replication timeout after the views converged ({converged.TotalMilliseconds:0} ms after the restart).");
        Assert.All(s_victimKeys, key => Assert.Equal(FirstValueBytes, store.DiskOf(s_victim).Read(key)!.Value!.Length));
    }

    [Fact]
    public async Task ServerBackWithAnEmptyDiskIsOfferedItsKeysAgainAtOnceWhenTheFirstOffersGoUnanswered()
    {
        var timeout = TimeSpan.FromMilliseconds(200);
        var store = await StartWithKeysAsync(TimeSpan.FromSeconds(180), timeout, frameFaults: true);
        store.Cube.Kill(s_victim);
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        store.Wipe(s_victim);
        store.Cube.Restart(s_victim);

        // From the moment a first server sees it back, it loses every frame for a little more than a
        // replication timeout (less than the heartbeat timeout: its links stay up), so the first
        // offers go unanswered.
        Assert.True(store.Cube.RunUntil(() => store.Cube.LiveNodes.Any(node => node.Self != s_victim && node.Reachability.IsReachable(s_victim)), TimeSpan.FromSeconds(5)));
        var seen = store.Cube.Elapsed;
        var faults = ((SimulatedCube)store.Cube).FaultsAt(s_victim)!;
        faults.Faults = new Transport.Faults.FaultOptions { DropProbability = 1 };
        store.Cube.RunFor(timeout * 1.25);
        faults.Faults = s_noFrameFaults;

        // Tried again as soon as they failed, they are answered once the frames get through; after a
        // further replication timeout's wait they would be answered only two timeouts after it was seen.
        var caughtUp = store.Cube.RunUntil(() => s_victimKeys.All(key => store.DiskOf(s_victim).Read(key) is not null), seen + (timeout * 1.75) - store.Cube.Elapsed);
        Assert.True(Sum(store, s => s.OffersFailed) > 0, "no offer failed: the frames were lost too late");
        Assert.True(caughtUp, $"{s_victimKeys.Count(key => store.DiskOf(s_victim).Read(key) is null)} of its {s_victimKeys.Length} keys were still missing 1.75 replication timeouts after it was seen back.");
        Assert.All(s_victimKeys, key => Assert.Equal(FirstValueBytes, store.DiskOf(s_victim).Read(key)!.Value!.Length));
    }

    [Fact]
    public async Task ServerBackWithAnEmptyDiskIsCaughtUpWhenALaterOfferOfALongCopyGoesUnanswered()
    {
        // One key an offer, so each peer's copy to the victim is many offers in a row.
        var victimKeys = s_longCopyVictimKeys;
        var timeout = TimeSpan.FromMilliseconds(200);
        var store = await StartWithKeysAsync(TimeSpan.FromSeconds(180), timeout, frameFaults: true, s_longCopyKeys, offerKeysMax: 1);
        RestartVictimWithAnEmptyDisk(store);

        // Halfway through the copies, every frame to the victim is lost for a little more than a
        // replication timeout (less than the heartbeat timeout: its links stay up), so each peer's
        // offer of the moment fails after several offers of its copy have succeeded.
        var victim = store[s_victim].Statistics;
        Assert.True(store.Cube.RunUntil(() => victim.KeysReceived >= victimKeys.Length / 2, TimeSpan.FromSeconds(5)), $"the victim received only {victim.KeysReceived} of its {victimKeys.Length} keys");
        var faults = ((SimulatedCube)store.Cube).FaultsAt(s_victim)!;
        faults.Faults = new Transport.Faults.FaultOptions { DropProbability = 1 };
        store.Cube.RunFor(timeout * 1.25);
        faults.Faults = s_noFrameFaults;

        // A copy tries each offer again after a failure, however many offers before it succeeded.
        var caughtUp = store.Cube.RunUntil(() => victimKeys.All(key => store.DiskOf(s_victim).Read(key) is not null), timeout * 6);
        Assert.True(Sum(store, s => s.OffersFailed) > 0, "no offer failed: the frames were lost too late");
        Assert.True(caughtUp, $"{victimKeys.Count(key => store.DiskOf(s_victim).Read(key) is null)} of its {victimKeys.Length} keys were still missing six replication timeouts after the loss ended.");
        Assert.All(victimKeys, key => Assert.Equal(FirstValueBytes, store.DiskOf(s_victim).Read(key)!.Value!.Length));
    }

    [Fact]
    public async Task ReadsAndWritesOfTheKeysOfAServerBeingCaughtUpGoOnWhileItCatchesUp()
    {
        var victimKeys = s_longCopyVictimKeys;
        var store = await StartWithKeysAsync(TimeSpan.FromSeconds(180), keys: s_longCopyKeys, offerKeysMax: 1);
        RestartVictimWithAnEmptyDisk(store);

        var victim = store[s_victim].Statistics;
        Assert.True(store.Cube.RunUntil(() => victim.KeysReceived > 0, TimeSpan.FromSeconds(5)), "the victim's catch-up did not begin");

        // One key the victim has not been sent yet, written and read while the copies run.
        var written = victimKeys.Last(key => store.DiskOf(s_victim).Read(key) is null);
        var put = await store.Run(store[s_client].PutAsync(written, new byte[NewValueBytes]));
        var reader = new Coordinate(2, 2, 2);
        var got = await store.Run(store[reader].GetAsync(victimKeys[0]));
        var receivedMeanwhile = victim.KeysReceived;

        Assert.Equal(WriteStatus.Written, put.Status);
        Assert.Equal(FirstValueBytes, got!.Value.Length);
        Assert.True(receivedMeanwhile < victimKeys.Length, $"the catch-up had ended ({receivedMeanwhile} of {victimKeys.Length} keys) before the put and the get were answered");
        Assert.True(store.Cube.RunUntil(() => victimKeys.All(key => store.DiskOf(s_victim).Read(key) is not null), TimeSpan.FromSeconds(5)));
        Assert.Equal(put.Version, store.DiskOf(s_victim).Read(written)!.Version);
        Assert.Equal(NewValueBytes, store.DiskOf(s_victim).Read(written)!.Value!.Length);
    }

    /// <param name="t">The re-replication delay.</param>
    /// <param name="replicationTimeout">The store's replication timeout; the default if null.</param>
    /// <param name="frameFaults">Whether every node gets a fault decorator (a 1 µs delay, so a test can make one lose frames).</param>
    /// <param name="keys">The keys written; <see cref="s_keys"/> if null.</param>
    /// <param name="offerKeysMax">The most keys one catch-up offer lists; the default if null.</param>
    private static async Task<StoreCube> StartWithKeysAsync(TimeSpan t, TimeSpan? replicationTimeout = null, bool frameFaults = false, Key[]? keys = null, int? offerKeysMax = null)
    {
        var options = new KeyValueServiceOptions
        {
            ReReplicationDelay = t,
            ReplicationTimeout = replicationTimeout ?? KeyValueServiceOptions.Default.ReplicationTimeout,
            OfferKeysMax = offerKeysMax ?? KeyValueServiceOptions.Default.OfferKeysMax,
        };
        var faults = frameFaults ? s_noFrameFaults : Transport.Faults.FaultOptions.None;
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 5, Faults = faults }, options);
        keys ??= s_keys;
        foreach (var key in keys)
        {
            await store.Run(store[s_client].PutAsync(key, new byte[FirstValueBytes]));
        }

        var victimKeys = keys.Count(key => KeySpace.For(s_shape).GetServersForKey(key, 3).Contains(s_victim));
        Assert.True(victimKeys >= 6, $"the victim holds only {victimKeys} keys");
        return store;
    }

    /// <summary>Kills the victim, waits for every view to see it gone, and starts it again with an empty disk.</summary>
    private static void RestartVictimWithAnEmptyDisk(StoreCube store)
    {
        store.Cube.Kill(s_victim);
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        store.Wipe(s_victim);
        store.Cube.Restart(s_victim);
    }

    private static async Task<Key[]> RewriteSomeKeysAsync(StoreCube store)
    {
        // Every third key, and half of the victim's keys at least.
        var rewritten = s_keys.Where((_, i) => i % 3 == 0).Union(s_victimKeys.Take(s_victimKeys.Length / 2)).ToArray();
        foreach (var key in rewritten)
        {
            await store.Run(store[s_client].PutAsync(key, new byte[NewValueBytes]));
        }

        return rewritten;
    }

    /// <summary>Whether two servers share a cable (a server that restarts beside a dead one may show it reachable for a moment, which would restart its t).</summary>
    private static bool IsNeighbour(Coordinate a, Coordinate b)
    {
        int Distance(int x, int y, int size) => Math.Min(Math.Abs(x - y), size - Math.Abs(x - y));
        return Distance(a.X, b.X, s_shape.X) + Distance(a.Y, b.Y, s_shape.Y) + Distance(a.Z, b.Z, s_shape.Z) == 1;
    }

    private static int ExpectedBytes(Key key, Key[] rewritten) => rewritten.Contains(key) ? NewValueBytes : FirstValueBytes;

    private static long Sum(StoreCube store, Func<KeyValueStatistics, long> counter) =>
        store.Cube.LiveNodes.Sum(node => counter(node.GetService<KeyValueService>()!.Statistics));
}
