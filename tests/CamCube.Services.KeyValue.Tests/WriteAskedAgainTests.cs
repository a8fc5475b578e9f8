using CamCube.Services.KeyValue.Messages;
using CamCube.Testing;
using static CamCube.Services.KeyValue.Tests.KeyValueServiceTests;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>
/// A write whose primary died after it took effect but before its answer reached the front-end: the
/// front-end asks the next primary again under the write's id and is told the write took effect,
/// never writing it twice.
/// </summary>
public sealed class WriteAskedAgainTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Key s_key = Key.FromString("asked-again");
    private static readonly Coordinate[] s_servers = KeySpace.For(s_shape).GetServersForKey(s_key, 3);
    private static readonly Coordinate s_client = FailoverTests.ClientOutside(s_servers);

    [Fact]
    public async Task CompareAndSwapWhosePrimaryDiesBeforeItsAnswerArrivesIsAnsweredWrittenByTheNextPrimaryAndSwappedOnce()
    {
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 31 });
        var one = await store.Run(store[s_client].PutAsync(s_key, Bytes("one")));
        var primary = store[s_servers[0]];
        var acknowledged = primary.Statistics.WritesAcknowledged;

        // The primary acknowledges the swap (every replica kept it) and dies with the answer still on its link.
        var swap = store[s_client].PutAsync(s_key, Bytes("two"), WriteCondition.IfVersion(one.Version));
        Assert.True(store.Cube.RunUntil(() => primary.Statistics.WritesAcknowledged > acknowledged, TimeSpan.FromSeconds(5)));
        var swappedAt = store.DiskOf(s_servers[0]).Read(s_key)!.Version;
        store.Cube.Kill(s_servers[0]);

        var swapped = await store.Run(swap);

        Assert.Equal(WriteStatus.Written, swapped.Status);
        Assert.Equal(swappedAt, swapped.Version);
        Assert.Equal(1, store[s_servers[1]].Statistics.WritesAnsweredAgain);
        Assert.Equal(swappedAt, store.DiskOf(s_servers[1]).Read(s_key)!.Version);
        var got = await store.Run(store[s_client].GetAsync(s_key));
        Assert.Equal("two", Text(got!.Value));
        Assert.Equal(swappedAt, got.Version);
    }

    [Fact]
    public async Task WriteAskedAgainIsWrittenWhenItNeverReachedThePrimaryThatDied()
    {
        // The primary is dead before the front-end hears: the write cannot have taken effect, and is written at the next primary.
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 32 });
        var one = await store.Run(store[s_client].PutAsync(s_key, Bytes("one")));
        store.Cube.Kill(s_servers[0]);

        var two = await store.Run(store[s_client].PutAsync(s_key, Bytes("two"), WriteCondition.IfVersion(one.Version)));

        Assert.Equal(WriteStatus.Written, two.Status);
        Assert.True(two.Version > one.Version);
        Assert.Equal(0, store[s_servers[1]].Statistics.WritesAnsweredAgain);
        Assert.Equal(two.Version, store.DiskOf(s_servers[1]).Read(s_key)!.Version);
    }

    [Fact]
    public async Task WriteAskedAgainOfAPrimaryThatRestartedIsAnsweredFromWhatItsReplicasNoted()
    {
        // The primary acknowledged the write, later writes replaced it, and the primary restarted
        // (its memory of write ids gone, its disk holding a later write's id): the replicas' promises
        // tell it, when it takes the key back, that the write took effect.
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 33 });
        const ulong WriteId = 0x5EED_0000_0000_0021;
        var two = await store.Run(store[s_client], s => s.CallOnLoopAsync(Put("two", WriteId)));
        Assert.Equal(WriteStatus.Written, two.WriteStatus);
        var three = await store.Run(store[s_client].PutAsync(s_key, Bytes("three")));
        store.Cube.Kill(s_servers[0]);
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        store.Cube.Restart(s_servers[0]);
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));

        var again = await store.Run(store[s_client], s => s.CallOnLoopAsync(Put("two", WriteId)));

        Assert.Equal(WriteStatus.Written, again.WriteStatus);
        Assert.Equal(two.Version, again.Version);
        Assert.Equal(1, store[s_servers[0]].Statistics.WritesAnsweredAgain);
        var got = await store.Run(store[s_client].GetAsync(s_key));
        Assert.Equal("three", Text(got!.Value));
        Assert.Equal(three.Version, got.Version);
    }

    [Fact]
    public async Task WriteAskedAgainOfAPrimaryThatRestartedAfterManyLaterWritesOfItsKeyIsAnsweredWritten()
    {
        // Seed 182 of the register workload: the answer was lost, twenty later writes of the key
        // followed, and the primary restarted. Promises that carried only a key's newest eight ids
        // let the restarted primary run the swap again, and answer "not swapped".
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 34 });
        const ulong WriteId = 0x5EED_0000_0000_0022;
        var swap = new ClientRequest { Operation = KeyValueOperation.Put, Key = KeyValueService.KeyBytes(s_key), Value = Bytes("first"), Condition = WriteConditionKind.IfAbsent, WriteId = WriteId };
        var first = await store.Run(store[s_client], s => s.CallOnLoopAsync(swap));
        Assert.Equal(WriteStatus.Written, first.WriteStatus);
        for (var i = 0; i < 20; i++)
        {
            await store.Run(store[s_client].PutAsync(s_key, Bytes($"later {i}")));
        }

        store.Cube.Kill(s_servers[0]);
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        store.Cube.Restart(s_servers[0]);
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));

        var again = await store.Run(store[s_client], s => s.CallOnLoopAsync(new ClientRequest { Operation = KeyValueOperation.Put, Key = KeyValueService.KeyBytes(s_key), Value = Bytes("first"), Condition = WriteConditionKind.IfAbsent, WriteId = WriteId }));

        Assert.Equal(WriteStatus.Written, again.WriteStatus);
        Assert.Equal(first.Version, again.Version);
        Assert.Equal(1, store[s_servers[0]].Statistics.WritesAnsweredAgain);
        var got = await store.Run(store[s_client].GetAsync(s_key));
        Assert.Equal("later 19", Text(got!.Value));
    }

    [Fact]
    public async Task FirstWriteOnlyItsPrimaryKeptIsAnsweredWrittenWhenAskedAgainAfterATakeOverAdoptedItAndALaterWriteFollowed()
    {
        // Seed 6562 of the register workload with four clients a node: a key's first write, sent with
        // its take-over, was kept by its primary only; the primary's next take-over adopted that copy
        // as the key's newest, but did not note the write's id, so the write, asked again after later
        // writes, was written a second time and its value came back.
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 35 });
        store.PassStartLease(null);
        var cube = (SimulatedCube)store.Cube;
        var primary = store[s_servers[0]];
        const ulong WriteId = 0x5EED_0000_0000_0035;
        ClientRequest First(bool firstAttempt) => new() { Operation = KeyValueOperation.Put, Key = KeyValueService.KeyBytes(s_key), Value = Bytes("first"), Condition = WriteConditionKind.Always, WriteId = WriteId, FirstAttempt = firstAttempt };

        // The replicas are cut off before the views notice: neither the first write's prepares nor the take-over after them are answered.
        cube.SetCutOff(s_servers[1], cutOff: true);
        cube.SetCutOff(s_servers[2], cutOff: true);
        var unsettled = await store.Run(primary, s => s.ServeAsync(First(firstAttempt: true), s_client));
        Assert.Equal(ReplyStatus.Unsettled, unsettled.Status);
        var keptAt = store.DiskOf(s_servers[0]).Read(s_key)!.Version;
        cube.SetCutOff(s_servers[1], cutOff: false);
        cube.SetCutOff(s_servers[2], cutOff: false);
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));

        // Another write takes the key over, adopting the primary's copy as the newest, and is written above it.
        var later = await store.Run(store[s_client].PutAsync(s_key, Bytes("later")));
        Assert.True(later.Version > keptAt, $"{later.Version} after {keptAt}");

        var again = await store.Run(primary, s => s.ServeAsync(First(firstAttempt: false), s_client));

        Assert.Equal(WriteStatus.Written, again.WriteStatus);
        Assert.Equal(keptAt, again.Version);
        Assert.Equal("later", Text((await store.Run(store[s_client].GetAsync(s_key)))!.Value));
    }

    [Fact]
    public async Task FirstWriteEveryReplicaKeptIsAnsweredWrittenWhenAskedAgainAfterItsRestartedPrimaryAdoptedItWroteOnAndDied()
    {
        // The replicas note a first write kept with their promise only as tentative (it may never take
        // effect); the take-over that adopts it sends it to every replica, so each notes it for good.
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 36 });
        store.PassStartLease(null);
        const ulong WriteId = 0x5EED_0000_0000_0036;
        ClientRequest First(bool firstAttempt) => new() { Operation = KeyValueOperation.Put, Key = KeyValueService.KeyBytes(s_key), Value = Bytes("first"), Condition = WriteConditionKind.Always, WriteId = WriteId, FirstAttempt = firstAttempt };

        // Written in one round, every replica keeping it; its answer is lost as its primary restarts (its disk kept).
        var first = await store.Run(store[s_servers[0]], s => s.ServeAsync(First(firstAttempt: true), s_client));
        Assert.Equal(WriteStatus.Written, first.WriteStatus);
        Assert.Equal(1, store[s_servers[0]].Statistics.FirstWritesInOneRound);
        store.Cube.Kill(s_servers[0]);
        store.Cube.Restart(s_servers[0]);
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));

        // The restarted primary takes the key over (adopting the first write, which every replica holds) and writes above it; then it dies.
        var later = await store.Run(store[s_client].PutAsync(s_key, Bytes("later")));
        Assert.True(later.Version > first.Version, $"{later.Version} after {first.Version}");
        store.Cube.Kill(s_servers[0]);
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));

        var again = await store.Run(store[s_servers[1]], s => s.ServeAsync(First(firstAttempt: false), s_client));

        Assert.Equal(WriteStatus.Written, again.WriteStatus);
        Assert.Equal(first.Version, again.Version);
        var got = await store.Run(store[s_client].GetAsync(s_key));
        Assert.Equal(("later", later.Version), (Text(got!.Value), got.Version));
    }

    [Fact]
    public async Task WriteAskedAgainAfterEveryServerThatNotedItRestartedEmptyOneAtATimeIsAnsweredWritten()
    {
        // Seed 17 of the register workload with four clients a node: never more than two of the key's
        // servers down at once, but every server that noted the write restarted with an empty disk or
        // died before the front-end asked again. The restarted ones had caught up on the key's newest
        // value only, so the new primary ran the write a second time, over later writes.
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 35 });
        const ulong WriteId = 0x5EED_0000_0000_0023;
        var two = await store.Run(store[s_client], s => s.CallOnLoopAsync(Put("two", WriteId)));
        Assert.Equal(WriteStatus.Written, two.WriteStatus);
        var three = await store.Run(store[s_client].PutAsync(s_key, Bytes("three")));

        RestartEmptyAndCatchUp(store, s_servers[1], three.Version);
        RestartEmptyAndCatchUp(store, s_servers[0], three.Version);
        store.Cube.Kill(s_servers[2]);
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));

        var again = await store.Run(store[s_client], s => s.CallOnLoopAsync(Put("two", WriteId)));

        Assert.Equal(WriteStatus.Written, again.WriteStatus);
        Assert.Equal(two.Version, again.Version);
        var got = await store.Run(store[s_client].GetAsync(s_key));
        Assert.Equal("three", Text(got!.Value));
        Assert.Equal(three.Version, got.Version);
    }

    [Fact]
    public async Task WriteWhosePrimaryDiedAndThatFindsNoOtherInTimeFailsAsMayOrMayNotHaveTakenEffect()
    {
        // The primary dies with the write done and its answer on the link, and the front-end is cut
        // off from every other server until the request's time is up: it cannot know the outcome.
        var options = KeyValueServiceOptions.Default with { RequestTimeout = TimeSpan.FromMilliseconds(600) };
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 34 }, options);
        await store.Run(store[s_client].PutAsync(s_key, Bytes("one")));
        var primary = store[s_servers[0]];
        var acknowledged = primary.Statistics.WritesAcknowledged;
        var put = store[s_client].PutAsync(s_key, Bytes("two"));
        Assert.True(store.Cube.RunUntil(() => primary.Statistics.WritesAcknowledged > acknowledged, TimeSpan.FromSeconds(5)));
        store.Cube.Kill(s_servers[0]);
        var network = ((SimulatedCube)store.Cube).Network;
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            _ = network.CutLink(s_client, (LinkDirection)d);
        }

        var error = await Assert.ThrowsAsync<KeyValueStoreException>(() => store.Run(put));

        Assert.Equal(KeyValueFailure.TimedOut, error.Reason);
        Assert.Contains("may or may not have taken effect", error.Message, StringComparison.Ordinal);
    }

    private static ClientRequest Put(string value, ulong writeId) =>
        new() { Key = KeyValueService.KeyBytes(s_key), Operation = KeyValueOperation.Put, Value = Bytes(value), WriteId = writeId };

    /// <summary>Kills <paramref name="server"/>, brings it back with an empty disk, and waits until it caught up to <paramref name="version"/>.</summary>
    private static void RestartEmptyAndCatchUp(StoreCube store, Coordinate server, long version)
    {
        store.Cube.Kill(server);
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        store.Wipe(server);
        store.Cube.Restart(server);
        Assert.True(store.Cube.RunUntil(() => store.DiskOf(server).Read(s_key)?.Version == version, TimeSpan.FromSeconds(10)), $"{server} did not catch up");
    }
}
