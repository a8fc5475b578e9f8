using CamCube.Services.KeyValue.Messages;
using CamCube.Testing;
using static CamCube.Services.KeyValue.Tests.KeyValueServiceTests;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>
/// Read leases renewed in bulk (docs/key-value-store.md): the primary keeps answering reads of a
/// key long after its last write while it renews its leases with the key's replicas; a newer
/// primary is held back only while the old one still serves the key, and an old primary that no
/// longer does gives the key up when told, so the fail-over waits about one lease, not for ever.
/// </summary>
public sealed class LeaseRenewalTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Key s_key = Key.FromString("renewed");
    private static readonly Coordinate[] s_servers = KeySpace.For(s_shape).GetServersForKey(s_key, 3);
    private static readonly Coordinate s_client = FailoverTests.ClientOutside(s_servers);

    // The primary's own lease, seen at the primary: the client's server takes no front-end lease.
    private static readonly KeyValueServiceOptions s_options = new() { ReadLease = TimeSpan.FromSeconds(1), LeaseDriftMargin = TimeSpan.FromMilliseconds(50), FrontEndLease = TimeSpan.Zero };

    private static TimeSpan RenewalPeriod => s_options.ReadLease / 3;

    [Fact]
    public async Task PrimaryAnswersReadsLongAfterTheWriteWithoutAskingItsReplicasWhileItRenewsItsLeases()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        await store.Run(store[s_client].PutAsync(s_key, Bytes("value")));
        store.Cube.RunFor(5 * s_options.ReadLease);

        for (var i = 0; i < 3; i++)
        {
            Assert.Equal("value", Text((await store.Run(store[s_client].GetAsync(s_key)))!.Value));
        }

        var primary = store[s_servers[0]].Statistics;
        Assert.Equal((3, 0), (primary.ReadsUnderLease, primary.ReadConfirms));
        Assert.InRange(primary.LeaseRenewalsSent, 2 * 5 * 3, 2 * ((5 * 3) + 2));
        Assert.All(s_servers[1..], replica => Assert.InRange(store[replica].Statistics.LeaseRenewalsGranted, 5 * 3, (5 * 3) + 2));
    }

    [Fact]
    public async Task PrimaryStopsRenewingOnceItsLeasesWentUnusedForTheIdleTimeAndThenAsksTheReplicasAgain()
    {
        var options = s_options with { LeaseRenewalIdleTime = TimeSpan.FromSeconds(3) };
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, options);
        await store.Run(store[s_client].PutAsync(s_key, Bytes("value")));
        var primary = store[s_servers[0]].Statistics;

        store.Cube.RunFor(options.LeaseRenewalIdleTime + (2 * options.ReadLease));
        var sent = primary.LeaseRenewalsSent;
        Assert.True(sent > 0, "The primary renewed nothing.");
        store.Cube.RunFor(10 * options.ReadLease);
        Assert.Equal(sent, primary.LeaseRenewalsSent);

        Assert.Equal("value", Text((await store.Run(store[s_client].GetAsync(s_key)))!.Value));
        Assert.Equal((0, 1), (primary.ReadsUnderLease, primary.ReadConfirms));
    }

    [Fact]
    public async Task ReplicaRenewsOnlyTheLeasesThatStillRanWhenTheRenewalsBegan()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        var replica = store[s_servers[1]];
        var holder = s_client;
        var rival = s_servers[2];
        var lapsed = Key.FromString("lapsed before the renewals");
        var running = Key.FromString("running when they began");

        await store.Run(replica, s => s.OnAcceptAsync(new Accept { Key = KeyValueService.KeyBytes(lapsed), Ballot = 1, CheckOnly = true }, holder));
        store.Cube.RunFor(s_options.ReadLease + RenewalPeriod);
        await store.Run(replica, s => s.OnAcceptAsync(new Accept { Key = KeyValueService.KeyBytes(running), Ballot = 1, CheckOnly = true }, holder));
        var first = replica.OnRenewLeases(new RenewLeases(), holder).Renewal;
        for (var i = 0; i < 9; i++)
        {
            store.Cube.RunFor(RenewalPeriod);
            Assert.Equal(first, replica.OnRenewLeases(new RenewLeases(), holder).Renewal);
        }

        var refused = await store.Run(replica, s => s.OnPrepareAsync(new Prepare { Key = KeyValueService.KeyBytes(running), Ballot = 2 }, rival));
        Assert.False(refused.Promised);
        Assert.InRange(refused.LeaseWaitMicroseconds, 1, (long)s_options.ReadLease.TotalMicroseconds);

        // The holder hears that another server wanted the key.
        var renewed = replica.OnRenewLeases(new RenewLeases(), holder);
        Assert.Equal(first, renewed.Renewal);
        Assert.Equal(KeyValueService.KeyBytes(running), Assert.Single(renewed.ContestedKeys));

        // The lease that had run out before the renewals began is not renewed.
        Assert.True((await store.Run(replica, s => s.OnPrepareAsync(new Prepare { Key = KeyValueService.KeyBytes(lapsed), Ballot = 2 }, rival))).Promised);

        // The renewals stopped: the lease ends with the last.
        store.Cube.RunFor(s_options.ReadLease);
        Assert.True((await store.Run(replica, s => s.OnPrepareAsync(new Prepare { Key = KeyValueService.KeyBytes(running), Ballot = 2 }, rival))).Promised);

        // A renewal after the run ended begins a new one.
        Assert.NotEqual(first, replica.OnRenewLeases(new RenewLeases(), holder).Renewal);
    }

    /// <summary>
    /// The newer primary is played by the test from the key's second server, asking only the third
    /// (the old primary, still the key's primary in its own view, is not asked). It is refused for
    /// as long as the old primary renews, which keeps serving; once the old primary dies, the key
    /// fails over.
    /// </summary>
    [Fact]
    public async Task NewerPrimaryIsHeldBackWhileTheOldPrimaryStillServesTheKeyAndFailsOverOnceItDies()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        var put = await store.Run(store[s_client].PutAsync(s_key, Bytes("value")));
        var prepare = new Prepare { Key = KeyValueService.KeyBytes(s_key), Ballot = (put.Version >> 24) + 1 };
        var old = store[s_servers[0]].Statistics;

        for (var i = 0; i < 10; i++)
        {
            store.Cube.RunFor(s_options.ReadLease / 2);
            Assert.False((await store.Run(store[s_servers[2]], s => s.OnPrepareAsync(prepare, s_servers[1]))).Promised, $"Promised {(i + 1) * 0.5} leases after the write.");
            Assert.Equal("value", Text((await store.Run(store[s_client].GetAsync(s_key)))!.Value));
        }

        Assert.Equal((10, 0), (old.ReadsUnderLease, old.ReadConfirms));

        Assert.True(store.Cube.Kill(s_servers[0]));
        var got = await store.Run(store[s_client].GetAsync(s_key));
        Assert.Equal("value", Text(got!.Value));
        Assert.Equal(1, store[s_servers[1]].Statistics.TakeOvers);
    }

    /// <summary>
    /// The newer primary, played by the test from the key's second server, asks the old primary too,
    /// which promises (it no longer serves the key). The other two servers (the newer primary's own
    /// among them) refuse while the old primary's renewals keep its lease; told so, the old primary gives the key up, and the newer primary has
    /// its promises within about one lease. Its write is then what the old primary reads.
    /// </summary>
    [Fact]
    public async Task OldPrimaryThatPromisedANewerBallotGivesTheKeyUpAndTheNewerPrimaryTakesItOverWithinAboutALease()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        var put = await store.Run(store[s_client].PutAsync(s_key, Bytes("before")));
        store.Cube.RunFor(3 * s_options.ReadLease);
        var ballot = (put.Version >> 24) + 1;
        var prepare = new Prepare { Key = KeyValueService.KeyBytes(s_key), Ballot = ballot };
        var newPrimary = s_servers[1];

        Assert.True((await store.Run(store[s_servers[0]], s => s.OnPrepareAsync(prepare, newPrimary))).Promised);
        var askedAt = store.Cube.Elapsed;
        var refusals = 0;
        while (!await store.PromisedAtAsync(s_servers[1..], prepare, newPrimary))
        {
            refusals++;
            Assert.True(store.Cube.Elapsed - askedAt < s_options.ReadLease + (3 * RenewalPeriod), $"Still refused {(store.Cube.Elapsed - askedAt).TotalMilliseconds:0} ms after the first ask.");
            store.Cube.RunFor(TimeSpan.FromMilliseconds(50));
        }

        Assert.True(refusals > 0, "The third server promised at once: the renewals did not hold the lease.");
        Assert.All(s_servers[1..], replica => Assert.Equal(1, store[replica].Statistics.LeasesReleased));

        var newer = (ballot << 24) | 1;
        foreach (var replica in s_servers)
        {
            var accepted = await store.Run(store[replica], s => s.OnAcceptAsync(new Accept { Key = KeyValueService.KeyBytes(s_key), Ballot = ballot, Version = newer, Value = Bytes("newer") }, newPrimary));
            Assert.True(accepted.Ok, $"{replica} refused the newer write: it promised ballot {accepted.Ballot}, the write's is {ballot}.");
        }

        var read = await store.Run(store[s_client].GetAsync(s_key));
        Assert.Equal(("newer", newer), (Text(read!.Value), read.Version));
    }

    /// <summary>
    /// As above, the old primary promises a newer ballot and the third server refuses the newer
    /// primary (played by the test) under the old primary's renewals; the third server dies right
    /// after its answer tells the old primary of the contested key, so the renewal that gives the
    /// key up fails and the key waits to be given up to a server that is gone. Once the view drops
    /// the dead server from the key's set and the renewals went unused for the idle time, the old
    /// primary sends no more renewals (before, it kept the dead server and sent it a failing
    /// renewal every third of a lease for ever).
    /// </summary>
    [Fact]
    public async Task PrimaryStopsRenewingWithAReplicaThatDiedWhileAKeyWaitedToBeGivenUpToItOnceItIsOutOfTheKeysSet()
    {
        var options = s_options with { LeaseRenewalIdleTime = TimeSpan.FromSeconds(5) };
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 3 }, options);
        var put = await store.Run(store[s_client].PutAsync(s_key, Bytes("before")));
        store.Cube.RunFor(3 * options.ReadLease);
        var prepare = new Prepare { Key = KeyValueService.KeyBytes(s_key), Ballot = (put.Version >> 24) + 1 };
        var newPrimary = s_servers[1];
        var third = s_servers[2];
        Assert.True((await store.Run(store[s_servers[0]], s => s.OnPrepareAsync(prepare, newPrimary))).Promised);
        Assert.False((await store.Run(store[third], s => s.OnPrepareAsync(prepare, newPrimary))).Promised, "The third server promised at once: the renewals did not hold the lease.");

        // The third server dies once its answer told the old primary of the contested key, as the renewal that gives the key up leaves.
        var old = store[s_servers[0]];
        var granted = store[third].Statistics.LeaseRenewalsGranted;
        Assert.True(store.Cube.RunUntil(() => store[third].Statistics.LeaseRenewalsGranted > granted, options.ReadLease));
        var sentBefore = old.Statistics.LeaseRenewalsSent;
        Assert.True(store.Cube.RunUntil(() => old.Statistics.LeaseRenewalsSent > sentBefore, options.ReadLease));
        Assert.Equal(0, store[third].Statistics.LeasesReleased);
        Assert.True(store.Cube.Kill(third));
        Assert.True(store.Cube.RunUntil(() => !store.Cube[s_servers[0]].Reachability.IsReachable(third), TimeSpan.FromSeconds(30)), "The old primary never saw the dead server go.");

        store.Cube.RunFor(options.LeaseRenewalIdleTime + (2 * options.ReadLease));
        var sent = old.Statistics.LeaseRenewalsSent;
        store.Cube.RunFor(10 * options.ReadLease);
        Assert.Equal(sent, old.Statistics.LeaseRenewalsSent);
    }

    /// <summary>
    /// The key's second server restarts (its disk kept) while the primary's lease on the key still
    /// runs; its new life knows no lease it granted before, and after its start lease it promises a
    /// newer primary (played by the test, whose other servers are taken as failed) and keeps its
    /// write. The primary must not go on answering the key from renewals of that replica as though
    /// the old lease still ran there: its next read returns the newer write, not the value it held.
    /// </summary>
    [Fact]
    public async Task ReplicaThatRestartedRenewsNoLeaseItGrantedBeforeSoTheOldPrimaryReadsTheNewerPrimarysWrite()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        var put = await store.Run(store[s_client].PutAsync(s_key, Bytes("before")));
        var replica = s_servers[1];
        Assert.True(store.Cube.Kill(replica));
        store.Cube.Restart(replica);
        store.Cube.RunFor(3 * s_options.ReadLease);

        var ballot = (put.Version >> 24) + 1;
        var rival = s_servers[2];
        var promise = await store.Run(store[replica], s => s.OnPrepareAsync(new Prepare { Key = KeyValueService.KeyBytes(s_key), Ballot = ballot }, rival));
        Assert.True(promise.Promised, "The restarted server refused: it granted no lease on the key in its new life.");
        var newer = (ballot << 24) | 1;
        var accepted = await store.Run(store[replica], s => s.OnAcceptAsync(new Accept { Key = KeyValueService.KeyBytes(s_key), Ballot = ballot, Version = newer, Value = Bytes("newer") }, rival));
        Assert.True(accepted.Ok);

        var read = await store.Run(store[s_client].GetAsync(s_key));
        Assert.Equal(("newer", newer), (Text(read!.Value), read.Version));
    }
}
