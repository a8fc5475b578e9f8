using CamCube.Services.KeyValue.Messages;
using CamCube.Services.KeyValue.Replication;
using CamCube.Testing;
using static CamCube.Services.KeyValue.Tests.KeyValueServiceTests;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>A key's first write sent with its take-over (<see cref="KeyValueServiceOptions.FirstWriteInOneRound"/>).</summary>
public sealed class FirstWriteTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Key s_key = Key.FromString("first-write");
    private static readonly Coordinate[] s_servers = KeySpace.For(s_shape).GetServersForKey(s_key, 3);
    private static readonly Coordinate s_client = FailoverTests.ClientOutside(s_servers);

    [Fact]
    public async Task FirstPutOfANewKeyIsAcknowledgedAfterOneRoundWithEveryReplicaHoldingItAndNoAccept()
    {
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 21 });
        store.PassStartLease(null);
        var primary = store[s_servers[0]].Statistics;

        var put = await store.Run(store[s_client].PutAsync(s_key, Bytes("first")));

        Assert.Equal(WriteStatus.Written, put.Status);
        Assert.Equal((1, 0, 0, 0L), (primary.FirstWritesInOneRound, primary.FirstWritesTakenOverFirst, primary.TakeOvers, primary.AcceptsSent));
        Assert.InRange(Versions.BallotOf(put.Version), 1, Ballots.FirstWriteMax);
        Assert.All(s_servers, server => Assert.Equal((put.Version, "first"), (store.DiskOf(server).Read(s_key)!.Version, Text(store.DiskOf(server).Read(s_key)!.Value!))));

        // The key is the primary's under that ballot: the next write is one accept round, the next version.
        var second = await store.Run(store[s_client].PutAsync(s_key, Bytes("second"), WriteCondition.IfVersion(put.Version)));
        Assert.Equal((WriteStatus.Written, put.Version + 1), (second.Status, second.Version));
        Assert.Equal(0, primary.TakeOvers);
        Assert.Equal("second", Text((await store.Run(store[s_client].GetAsync(s_key)))!.Value));
    }

    [Fact]
    public async Task FirstPutMeetingReplicasThatHoldTheKeyTakesItOverAndIsWrittenAboveTheirNewestVersion()
    {
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 22 });
        store.PassStartLease(null);

        // The replicas hold the key from a primary before this one (played by the test); the primary has never seen it.
        var older = Versions.Next(0, 3);
        foreach (var replica in s_servers[1..])
        {
            var accepted = await store.Run(store[replica], s => s.OnAcceptAsync(new Accept { Key = KeyValueService.KeyBytes(s_key), Ballot = 3, Version = older, Value = Bytes("older"), WriteId = 5 }, s_servers[0]));
            Assert.True(accepted.Ok);
        }

        var put = await store.Run(store[s_client].PutAsync(s_key, Bytes("new")));

        var primary = store[s_servers[0]].Statistics;
        Assert.Equal(WriteStatus.Written, put.Status);
        Assert.Equal((0, 1, 1), (primary.FirstWritesInOneRound, primary.FirstWritesTakenOverFirst, primary.TakeOvers));
        Assert.True(put.Version > older, $"{put.Version} should exceed the replicas' {older}.");
        Assert.All(s_servers, server => Assert.Equal(put.Version, store.DiskOf(server).Read(s_key)!.Version));
        Assert.Equal("new", Text((await store.Run(store[s_client].GetAsync(s_key)))!.Value));
    }

    [Fact]
    public async Task FirstPutKeptByOneReplicaButMeetingAnotherThatHoldsTheKeyIsWrittenAboveItsValueNotAnsweredFromTheFirstCopy()
    {
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 24 });
        store.PassStartLease(null);

        // One replica holds the key from a take-over before this primary's time (two servers of the set were away
        // when it was first written); the other has never seen it and keeps the first write sent with the prepare.
        var older = Versions.Next(0, Ballots.FirstWriteMax + 5);
        var holder = s_servers[1];
        var accepted = await store.Run(store[holder], s => s.OnAcceptAsync(new Accept { Key = KeyValueService.KeyBytes(s_key), Ballot = Ballots.FirstWriteMax + 5, Version = older, Value = Bytes("older"), WriteId = 5 }, s_servers[0]));
        Assert.True(accepted.Ok);

        var put = await store.Run(store[s_client].PutAsync(s_key, Bytes("new")));

        var primary = store[s_servers[0]].Statistics;
        Assert.Equal(WriteStatus.Written, put.Status);
        Assert.Equal((0, 1), (primary.FirstWritesInOneRound, primary.FirstWritesTakenOverFirst));
        Assert.True(put.Version > older, $"The put was answered at {put.Version}, below the value {older} it found: it never took effect.");
        Assert.All(s_servers, server => Assert.Equal((put.Version, "new"), (store.DiskOf(server).Read(s_key)!.Version, Text(store.DiskOf(server).Read(s_key)!.Value!))));
        Assert.Equal("new", Text((await store.Run(store[s_client].GetAsync(s_key)))!.Value));
    }

    [Theory]
    [InlineData("add")]
    [InlineData("delete")]
    [InlineData("off")]
    public async Task ConditionalWritesDeletesAndAStoreWithTheRoundOffTakeANewKeyOverFirst(string what)
    {
        var options = KeyValueServiceOptions.Default with { FirstWriteInOneRound = what != "off" };
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 23 }, options);
        store.PassStartLease(options);
        var client = store[s_client];

        var outcome = await store.Run(what switch
        {
            "add" => client.PutAsync(s_key, Bytes("v"), WriteCondition.IfAbsent),
            "delete" => client.DeleteAsync(s_key),
            _ => client.PutAsync(s_key, Bytes("v")),
        });

        var primary = store[s_servers[0]].Statistics;
        Assert.Equal(what == "delete" ? WriteStatus.NotFound : WriteStatus.Written, outcome.Status);
        Assert.Equal((0, 0, 1), (primary.FirstWritesInOneRound, primary.FirstWritesTakenOverFirst, primary.TakeOvers));
        Assert.True(what == "delete" || Versions.BallotOf(outcome.Version) > Ballots.FirstWriteMax, "A take-over's ballot is above every first write's.");
    }

    [Fact]
    public async Task ReplicaThatHasNeverSeenTheKeyKeepsTheFirstWriteWithItsPromise()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape);
        store.PassStartLease(null);
        var replica = store[s_servers[1]];

        var promise = await store.Run(replica, s => s.OnPrepareAsync(FirstWrite(ballot: 7, writeId: 99, "v"), s_servers[0]));

        Assert.True(promise.Promised && promise.Kept);
        var kept = store.DiskOf(s_servers[1]).Read(s_key)!;
        Assert.Equal((Versions.Next(0, 7), "v", 99UL), (kept.Version, Text(kept.Value!), kept.WriteId));
        Assert.Equal(7, store.DiskOf(s_servers[1]).ListPromises().Single(p => p.Key == s_key).Value);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task ReplicaPassesOnTheIdOfAFirstWriteItKeptOnlyOnceThePrimaryWroteOnUnderThatBallot(bool wroteOn)
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape);
        store.PassStartLease(null);
        var replica = store[s_servers[1]];
        var kept = await store.Run(replica, s => s.OnPrepareAsync(FirstWrite(ballot: 7, writeId: 99, "v"), s_servers[0]));
        Assert.True(kept.Kept);
        if (wroteOn)
        {
            // The primary writes on under the first write's ballot only once every replica kept that write.
            var next = await store.Run(replica, s => s.OnAcceptAsync(new Accept { Key = KeyValueService.KeyBytes(s_key), Ballot = 7, Version = kept.Version + 1, Value = Bytes("w"), WriteId = 100 }, s_servers[0]));
            Assert.True(next.Ok);
        }

        // A take-over (from the same server, whose lease the replica holds to): the replica vouches for the first write only once the primary wrote on.
        var promise = await store.Run(replica, s => s.OnPrepareAsync(new Prepare { Key = KeyValueService.KeyBytes(s_key), Ballot = Ballots.FirstWriteMax + 1, Version = 0 }, s_servers[0]));

        Assert.True(promise.Promised);
        Assert.Equal(wroteOn ? [99UL, 100UL] : [], promise.RecentWriteIds);
        Assert.Equal(wroteOn ? [kept.Version, kept.Version + 1] : [], promise.RecentWriteVersions);
    }

    [Fact]
    public async Task ReplicaThatHoldsTheKeyPromisesAndAnswersWithItsValueButDoesNotKeepTheFirstWrite()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape);
        store.PassStartLease(null);
        var replica = store[s_servers[1]];
        var taken = await store.Run(replica, s => s.OnAcceptAsync(new Accept { Key = KeyValueService.KeyBytes(s_key), Ballot = 3, Version = Versions.Next(0, 3), Value = Bytes("held"), WriteId = 5 }, s_servers[0]));
        Assert.True(taken.Ok);

        var promise = await store.Run(replica, s => s.OnPrepareAsync(FirstWrite(ballot: 9, writeId: 99, "v"), s_servers[0]));

        Assert.True(promise.Promised);
        Assert.False(promise.Kept);
        Assert.Equal((Versions.Next(0, 3), "held"), (promise.Version, Text(promise.Value)));
        Assert.Equal("held", Text(store.DiskOf(s_servers[1]).Read(s_key)!.Value!));
    }

    [Fact]
    public async Task ReplicaKeepsNoWriteSentWithATakeOversBallotOrAWriteItNotedBefore()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape);
        store.PassStartLease(null);
        var replica = store[s_servers[1]];

        var aboveFirstWrites = await store.Run(replica, s => s.OnPrepareAsync(FirstWrite(Ballots.FirstWriteMax + 1, writeId: 99, "v"), s_servers[0]));
        Assert.True(aboveFirstWrites.Promised);
        Assert.False(aboveFirstWrites.Kept);
        Assert.Null(store.DiskOf(s_servers[1]).Read(s_key));

        // A first write at a lower ballot than one promised is refused outright.
        var refused = await store.Run(replica, s => s.OnPrepareAsync(FirstWrite(ballot: 4, writeId: 100, "w"), s_servers[2]));
        Assert.False(refused.Promised || refused.Kept);
        Assert.Null(store.DiskOf(s_servers[1]).Read(s_key));
    }

    [Fact]
    public void FirstWriteBallotsOfTheServersOfACubeDifferAndStayBelowEveryTakeOversBallot()
    {
        foreach (var random in new[] { 0UL, ulong.MaxValue, 0x9E3779B97F4A7C15UL })
        {
            var ballots = Enumerable.Range(0, (int)s_shape.ServerCount).Select(i => Ballots.DrawFirstWrite(random, i, s_shape.ServerCount)).ToArray();
            Assert.Equal(ballots.Length, ballots.Distinct().Count());
            Assert.All(ballots, ballot => Assert.InRange(ballot, 1, Ballots.FirstWriteMax));
        }

        Assert.InRange(Ballots.DrawFirstWrite(ulong.MaxValue, CamCube.Runtime.Node.ServerCountMax - 1, CamCube.Runtime.Node.ServerCountMax), 1, Ballots.FirstWriteMax);
        Assert.Equal(Ballots.FirstWriteMax + 1, Ballots.Above(0));
        Assert.Equal(Ballots.FirstWriteMax + 8, Ballots.Above(Ballots.FirstWriteMax + 7));
        Assert.Throws<ArgumentOutOfRangeException>(() => Ballots.DrawFirstWrite(0, 27, 27));
    }

    private static Prepare FirstWrite(long ballot, ulong writeId, string value) =>
        new() { Key = KeyValueService.KeyBytes(s_key), Ballot = ballot, WriteId = writeId, Value = Bytes(value) };
}
