using CamCube.Services.KeyValue.Messages;
using CamCube.Testing;
using static CamCube.Services.KeyValue.Tests.KeyValueServiceTests;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>
/// A newer primary is played by the test: it takes the key over at the replicas with a higher
/// ballot (and writes there) while the old primary still believes it is the primary. It asks once
/// the old primary's read lease has run out, as a real one waits for it (<see cref="LeaseTests"/>).
/// The old primary renews no leases in bulk, so its lease runs out one lease after its write
/// (<see cref="LeaseRenewalTests"/> for renewals).
/// </summary>
public sealed class FencingTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Key s_key = Key.FromString("fenced");
    private static readonly Coordinate[] s_servers = KeySpace.For(s_shape).GetServersForKey(s_key, 3);
    private static readonly Coordinate s_client = FailoverTests.ClientOutside(s_servers);
    private static readonly KeyValueServiceOptions s_options = new() { LeaseRenewalIdleTime = TimeSpan.Zero };

    [Fact]
    public async Task ReplicaRefusesTheOldPrimarysWriteWhenItPromisedAHigherBallot()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        var put = await store.Run(store[s_client].PutAsync(s_key, Bytes("old primary")));
        var replica = store[s_servers[1]];
        var ballot = put.Version >> 24;
        store.Cube.RunFor(KeyValueServiceOptions.Default.ReadLease);

        Assert.True((await store.Run(replica, s => s.OnPrepareAsync(new Prepare { Key = KeyValueService.KeyBytes(s_key), Ballot = ballot + 1 }))).Promised);
        var late = await store.Run(replica, s => s.OnAcceptAsync(new Accept { Key = KeyValueService.KeyBytes(s_key), Ballot = ballot, Version = put.Version + 1, Value = Bytes("deposed") }));
        Assert.False(late.Ok);
        Assert.Equal(ballot + 1, late.Ballot);
        Assert.Equal(put.Version, store.DiskOf(s_servers[1]).Read(s_key)!.Version);
        Assert.False((await store.Run(replica, s => s.OnPrepareAsync(new Prepare { Key = KeyValueService.KeyBytes(s_key), Ballot = ballot + 1 }))).Promised);
    }

    [Fact]
    public async Task RestartedReplicaRefusesTheOldPrimarysWriteWhenItPromisedAHigherBallotBeforeTheRestart()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        var put = await store.Run(store[s_client].PutAsync(s_key, Bytes("old primary")));
        var ballot = put.Version >> 24;
        store.Cube.RunFor(KeyValueServiceOptions.Default.ReadLease);
        Assert.True((await store.Run(store[s_servers[1]], s => s.OnPrepareAsync(new Prepare { Key = KeyValueService.KeyBytes(s_key), Ballot = ballot + 1 }))).Promised);

        // The replica restarts with its disk: the promise was kept there, not only in its memory.
        Assert.True(store.Cube.Kill(s_servers[1]));
        store.Cube.Restart(s_servers[1]);
        var late = await store.Run(store[s_servers[1]], s => s.OnAcceptAsync(new Accept { Key = KeyValueService.KeyBytes(s_key), Ballot = ballot, Version = put.Version + 1, Value = Bytes("deposed") }));

        Assert.False(late.Ok);
        Assert.Equal(ballot + 1, late.Ballot);
        Assert.Equal(put.Version, store.DiskOf(s_servers[1]).Read(s_key)!.Version);
        Assert.Equal("old primary", Text(store.DiskOf(s_servers[1]).Read(s_key)!.Value));
    }

    /// <summary>
    /// The key's third server is replaced with an empty disk while a newer primary (played by the
    /// test from the key's second server) takes the key over at the other two and writes there. Back,
    /// the third server catches up on that write, which promises nothing. The old primary's late
    /// write under its older ballot must then be refused, as a promise of the newer ballot would
    /// refuse it (before, the replica answered yes without keeping it, its disk holding the newer write).
    /// </summary>
    [Fact]
    public async Task ReplicaThatCaughtUpOnANewerPrimarysWriteRefusesTheOldPrimarysWrite()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        var put = await store.Run(store[s_client].PutAsync(s_key, Bytes("old primary")));
        var ballot = put.Version >> 24;
        store.Cube.RunFor(KeyValueServiceOptions.Default.ReadLease);
        var third = s_servers[2];
        Assert.True(store.Cube.Kill(third));
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        store.Wipe(third);

        var newer = (1L << 33) + 1;
        var newerVersion = (newer << 24) | 1;
        foreach (var server in s_servers[..2])
        {
            Assert.True((await store.Run(store[server], s => s.OnPrepareAsync(new Prepare { Key = KeyValueService.KeyBytes(s_key), Ballot = newer }, s_servers[1]))).Promised);
            Assert.True((await store.Run(store[server], s => s.OnAcceptAsync(new Accept { Key = KeyValueService.KeyBytes(s_key), Ballot = newer, Version = newerVersion, Value = Bytes("newer") }, s_servers[1]))).Ok);
        }

        store.Cube.Restart(third);
        Assert.True(store.Cube.RunUntil(() => store.DiskOf(third).Read(s_key)?.Version == newerVersion, TimeSpan.FromSeconds(10)), "The third server did not catch up on the newer write.");

        var late = await store.Run(store[third], s => s.OnAcceptAsync(new Accept { Key = KeyValueService.KeyBytes(s_key), Ballot = ballot, Version = put.Version + 1, Value = Bytes("deposed") }, s_servers[0]));
        Assert.False(late.Ok, "The replica said it kept the old primary's write under a ballot below the write it holds.");
        Assert.Equal(newer, late.Ballot);
        Assert.Equal(("newer", newerVersion), (Text(store.DiskOf(third).Read(s_key)!.Value), store.DiskOf(third).Read(s_key)!.Version));
    }

    [Fact]
    public async Task OldPrimaryReadsTheNewerPrimarysWriteWhenANewerBallotWroteAtItsReplicas()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        var put = await store.Run(store[s_client].PutAsync(s_key, Bytes("before")));
        var newer = ((put.Version >> 24) + 1) << 24 | 1;
        store.Cube.RunFor(KeyValueServiceOptions.Default.ReadLease);

        // The newer primary takes the key over at both replicas and writes there; the old primary was not asked.
        foreach (var replica in s_servers[1..])
        {
            Assert.True((await store.Run(store[replica], s => s.OnPrepareAsync(new Prepare { Key = KeyValueService.KeyBytes(s_key), Ballot = newer >> 24 }))).Promised);
            Assert.True((await store.Run(store[replica], s => s.OnAcceptAsync(new Accept { Key = KeyValueService.KeyBytes(s_key), Ballot = newer >> 24, Version = newer, Value = Bytes("newer") }))).Ok);
        }

        var got = await store.Run(store[s_client].GetAsync(s_key));
        Assert.Equal(newer, got!.Version);
        Assert.Equal("newer", Text(got.Value));
        Assert.Equal(newer, store.DiskOf(s_servers[0]).Read(s_key)!.Version);
    }

    [Fact]
    public async Task PrimaryThatKeptANewerPrimarysWriteAsItsReplicaTakesTheKeyBackAndWritesAboveIt()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        var put = await store.Run(store[s_client].PutAsync(s_key, Bytes("before")));
        var newer = ((put.Version >> 24) + 1) << 24 | 1;
        store.Cube.RunFor(KeyValueServiceOptions.Default.ReadLease);

        // Another server, primary in its own view, wrote the key at every server, the primary among them.
        foreach (var server in s_servers)
        {
            Assert.True((await store.Run(store[server], s => s.OnPrepareAsync(new Prepare { Key = KeyValueService.KeyBytes(s_key), Ballot = newer >> 24 }))).Promised);
            Assert.True((await store.Run(store[server], s => s.OnAcceptAsync(new Accept { Key = KeyValueService.KeyBytes(s_key), Ballot = newer >> 24, Version = newer, Value = Bytes("newer") }))).Ok);
        }

        // Its lane still holds its old ballot, below the version now on its disk.
        var after = await store.Run(store[s_client].PutAsync(s_key, Bytes("after"), WriteCondition.IfVersion(newer)));

        Assert.Equal(WriteStatus.Written, after.Status);
        Assert.True(after.Version > newer, $"{after.Version} should exceed {newer}.");
        Assert.Equal("after", Text(store.DiskOf(s_servers[1]).Read(s_key)!.Value));
    }

    [Fact]
    public async Task RefusedWriteIsAcknowledgedWithItsOwnVersionWhenNoNewerPrimaryWroteTheKey()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        var put = await store.Run(store[s_client].PutAsync(s_key, Bytes("before")));
        var newer = (put.Version >> 24) + 1;
        store.Cube.RunFor(KeyValueServiceOptions.Default.ReadLease);

        // A newer primary takes the key over at both replicas and writes nothing.
        foreach (var replica in s_servers[1..])
        {
            Assert.True((await store.Run(store[replica], s => s.OnPrepareAsync(new Prepare { Key = KeyValueService.KeyBytes(s_key), Ballot = newer }))).Promised);
        }

        // Both replicas refuse the old primary's write, which its own disk kept meanwhile: taking the key back, it finds its write the newest and copies it.
        var written = await store.Run(store[s_client].PutAsync(s_key, Bytes("after")));

        Assert.Equal(new WriteOutcome(WriteStatus.Written, put.Version + 1), written);
        Assert.Equal(1, store[s_servers[0]].Statistics.RefusedWritesSettled);
        Assert.All(s_servers, server => Assert.Equal(put.Version + 1, store.DiskOf(server).Read(s_key)!.Version));
        Assert.All(s_servers, server => Assert.Equal("after", Text(store.DiskOf(server).Read(s_key)!.Value)));
    }

    [Fact]
    public async Task OldPrimaryWritesAboveTheNewerPrimarysVersionWhenItTakesTheKeyBack()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        var put = await store.Run(store[s_client].PutAsync(s_key, Bytes("before")));
        var newer = ((put.Version >> 24) + 1) << 24 | 1;
        store.Cube.RunFor(KeyValueServiceOptions.Default.ReadLease);
        foreach (var replica in s_servers[1..])
        {
            await store.Run(store[replica], s => s.OnPrepareAsync(new Prepare { Key = KeyValueService.KeyBytes(s_key), Ballot = newer >> 24 }));
            await store.Run(store[replica], s => s.OnAcceptAsync(new Accept { Key = KeyValueService.KeyBytes(s_key), Ballot = newer >> 24, Version = newer, Value = Bytes("newer") }));
        }

        // The old primary's own disk kept the write the replicas refused; taking the key back replaces it there with the newer one, so the caller asks again.
        var stale = await store.Run(store[s_client].PutAsync(s_key, Bytes("cas on the old version"), WriteCondition.IfVersion(put.Version)));
        Assert.Equal(new WriteOutcome(WriteStatus.ConditionFailed, newer), stale);
        Assert.Equal(1, store[s_servers[0]].Statistics.RefusedWritesSettled);
        var written = await store.Run(store[s_client].PutAsync(s_key, Bytes("after"), WriteCondition.IfVersion(newer)));
        Assert.Equal(WriteStatus.Written, written.Status);
        Assert.True(written.Version > newer);
        Assert.All(s_servers, server => Assert.Equal(written.Version, store.DiskOf(server).Read(s_key)!.Version));
    }

    [Fact]
    public async Task RoundOfSetsEveryReplicaRefusedIsSettledWithTheIdsOfItsSupersededSetsNotedAtEveryReplica()
    {
        var store = StoreCube.Start(TestTransport.Simulator, s_shape, s_options);
        var first = await store.Run(store[s_client].PutAsync(s_key, Bytes("first")));
        store.Cube.RunFor(KeyValueServiceOptions.Default.ReadLease);

        // Ten sets at once: the first is written alone, the others wait and go in a round or two.
        var puts = Enumerable.Range(1, 10).Select(i => store[s_client].PutAsync(s_key, Bytes($"set {i}"))).ToArray();
        Assert.True(store.Cube.RunUntil(() => s_servers[1..].All(r => store.DiskOf(r).Read(s_key)!.Version != first.Version), TimeSpan.FromSeconds(10)));

        // On links with a delay, before the next round reaches them, both replicas promise a higher
        // ballot, so they refuse it while the primary's own disk keeps it: the primary takes the key
        // back, adopts its own copy and copies it to them.
        var ballot = Replication.Ballots.FirstWriteMax + 100;
        var promises = s_servers[1..].Select(r => store[r].HandleOnLoopAsync(s => s.OnPrepareAsync(new Prepare { Key = KeyValueService.KeyBytes(s_key), Ballot = ballot }, s_servers[0]))).ToArray();
        Assert.True(store.Cube.RunUntil(() => puts.All(p => p.IsCompleted), TimeSpan.FromSeconds(30)));
        Assert.All(promises, p => Assert.True(p.Result.Promised));
        Assert.All(puts, p => Assert.Equal(WriteStatus.Written, p.Result.Status));
        var primary = store[s_servers[0]];
        Assert.Equal(1, primary.Statistics.RefusedWritesSettled);
        Assert.InRange(primary.Statistics.WritesSupersededInTheirRound, 1, 8);

        // Were the primary to die now, the next would learn every id from either replica's promise,
        // and answer each set asked again rather than write it twice.
        foreach (var replica in s_servers[1..])
        {
            var promise = await store.Run(store[replica], s => s.OnPrepareAsync(new Prepare { Key = KeyValueService.KeyBytes(s_key), Ballot = ballot + 1000 }, s_servers[0]));
            Assert.True(promise.Promised);
            Assert.Equal(11, promise.RecentWriteIds.Distinct().Count());
            Assert.Superset(puts.Select(p => p.Result.Version).ToHashSet(), promise.RecentWriteVersions.ToHashSet());
        }
    }

    /// <summary>
    /// A server that stands in for a failed replica first hears the primary's ballot in the check of a
    /// key never written (the set extended behind the primary), then keeps a write under it. Restarted
    /// with its disk, it must still refuse a lower ballot, and refuse to promise that ballot to another
    /// server, as it would had the ballot come with a prepare: two primaries under one ballot could
    /// write one version with two values. (Take-over ballots carry no server's index: two servers that saw the same highest
    /// ballot pick the same next one.)
    /// </summary>
    [Fact]
    public async Task RestartedStandInRefusesTheBallotItFirstHeardInACheckOfItsPrimaryAndKeptAWriteUnder()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        Assert.Null(await store.Run(store[s_client].GetAsync(s_key)));
        var standIn = KeySpace.For(s_shape).GetServersForKey(s_key, 4)[3];
        Assert.NotEqual(s_client, standIn);
        Assert.True(store.Cube.Kill(s_servers[2]));
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        store.Cube.RunFor(KeyValueServiceOptions.Default.FrontEndLease);

        // The primary extends the key's set to the stand-in with a check of its ballot (the key holds nothing), then writes.
        Assert.Null(await store.Run(store[s_client].GetAsync(s_key)));
        Assert.Equal(1, store[s_servers[0]].Statistics.SetExtensions);
        var put = await store.Run(store[s_client].PutAsync(s_key, Bytes("written")));
        Assert.Equal(put.Version, store.DiskOf(standIn).Read(s_key)!.Version);
        var ballot = put.Version >> 24;

        Assert.True(store.Cube.Kill(standIn));
        store.Cube.Restart(standIn);
        store.PassStartLease(s_options);
        var late = await store.Run(store[standIn], s => s.OnAcceptAsync(new Accept { Key = KeyValueService.KeyBytes(s_key), Ballot = ballot - 1, Version = ((ballot - 1) << 24) | 1, Value = Bytes("below") }, s_client));
        Assert.False(late.Ok, $"The restarted stand-in took a write under ballot {ballot - 1}, below the one it kept a write under.");
        var rival = await store.Run(store[standIn], s => s.OnPrepareAsync(new Prepare { Key = KeyValueService.KeyBytes(s_key), Ballot = ballot }, s_client));

        Assert.False(rival.Promised, $"The restarted stand-in promised ballot {ballot} to a second server.");
        Assert.Equal(ballot, rival.Ballot);
    }
}
