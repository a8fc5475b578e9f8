using CamCube.Messaging;
using CamCube.Testing;
using CamCube.Transport.Faults;
using Microsoft.Extensions.Logging;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>
/// The store while the fault decorators drop 5% of the frames every node receives (docs/key-value-store.md,
/// "Limits"): a lost request or reply costs a retransmission timeout, not the whole request timeout.
/// Times are the simulator's virtual time.
/// </summary>
public sealed class PacketLossTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly FaultOptions s_dropFivePercent = new() { DropProbability = 0.05 };
    private static readonly TimeSpan s_idleSpellMax = new Reliable.ReliableOptions().ReceiveFlowIdleTimeout + TimeSpan.FromSeconds(5);

    private static readonly Coordinate[] s_clients = [new(0, 0, 0), new(1, 2, 0), new(2, 1, 1), new(0, 2, 2)];

    /// <summary>
    /// The most a call may take under 5% loss on the reliable transport: half the request timeout
    /// (a lost best-effort message cost the whole 5 s). A message crossing three hops is lost about
    /// one time in seven; each loss costs a retransmission timeout (200 ms before the first sample of
    /// a peer, doubling), so four losses of one message in a row still fit.
    /// </summary>
    private static readonly TimeSpan s_callTimeMax = KeyValueServiceOptions.Default.RequestTimeout / 2;

    [Theory]
    [InlineData(61)]
    [InlineData(62)]
    public async Task PutGetAndCasCompleteWellWithinTheRequestTimeoutWhenFivePercentOfPacketsAreDropped(int seed)
    {
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = seed, Faults = s_dropFivePercent });
        var timer = new CallTimer(store);
        const int Rounds = 12;
        for (var i = 0; i < Rounds; i++)
        {
            var key = Key.FromString($"lossy-{seed}-{i}");
            var client = store[s_clients[i % s_clients.Length]];
            if (i % 4 == 3)
            {
                // An idle spell: the primaries' read leases run out, so the next calls check their ballots with
                // the replicas; the longest also outlasts what the reliable transport remembers of a silent peer.
                store.Cube.RunFor(i == 3 ? s_idleSpellMax : KeyValueServiceOptions.Default.ReadLease * 2);
            }

            var put = await timer.Run(client.PutAsync(key, KeyValueServiceTests.Bytes("one")));
            Assert.Equal(WriteStatus.Written, put.Status);
            var got = await timer.Run(client.GetAsync(key));
            Assert.Equal(put.Version, got!.Version);
            var swapped = await timer.Run(client.PutAsync(key, KeyValueServiceTests.Bytes("two"), WriteCondition.IfVersion(put.Version)));
            Assert.Equal(WriteStatus.Written, swapped.Status);
            var stale = await timer.Run(client.PutAsync(key, KeyValueServiceTests.Bytes("three"), WriteCondition.IfVersion(put.Version)));
            Assert.Equal(new WriteOutcome(WriteStatus.ConditionFailed, swapped.Version), stale);
        }

        Assert.True(timer.Slowest < s_callTimeMax, $"seed {seed}: the slowest call took {timer.Slowest.TotalMilliseconds:0} ms of virtual time; at most {s_callTimeMax.TotalMilliseconds:0} ms expected.");

        // Each write ran once at its primary, though its messages were resent: two per round.
        Assert.Equal(2 * Rounds, store.Cube.LiveNodes.Sum(node => node.GetService<KeyValueService>()!.Statistics.WritesAcknowledged));
    }

    [Theory]
    [InlineData(71)]
    [InlineData(72)]
    public async Task BestEffortReadIsAskedAgainBeforeTheRequestTimeoutWhenFivePercentOfPacketsAreDropped(int seed)
    {
        var options = KeyValueServiceOptions.Default with { Delivery = MessageDelivery.BestEffort };
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = seed, Faults = s_dropFivePercent }, options);
        var keys = Enumerable.Range(0, 6).Select(i => Key.FromString($"lossy-read-{seed}-{i}")).ToArray();
        foreach (var key in keys)
        {
            await PutUntilWrittenAsync(store, store[s_clients[0]], key);
        }

        var timer = new CallTimer(store);
        for (var i = 0; i < 40; i++)
        {
            var got = await timer.Run(store[s_clients[i % s_clients.Length]].GetAsync(keys[i % keys.Length]));
            Assert.Equal("value", KeyValueServiceTests.Text(got!.Value));
        }

        // Every read answered (one that waited the whole request timeout would have failed), most at once; a
        // read whose request or reply was lost asked again after ReadAttemptTimeout, so even the slowest
        // (several attempts lost, or queued behind a ballot check that lost a message) left time to spare.
        Assert.True(timer.Slowest < options.RequestTimeout * 0.8, $"seed {seed}: the slowest read took {timer.Slowest.TotalMilliseconds:0} ms of virtual time.");
    }

    [Fact]
    public async Task BestEffortWriteIsNeverAppliedTwiceWhenFivePercentOfPacketsAreDropped()
    {
        var options = KeyValueServiceOptions.Default with { Delivery = MessageDelivery.BestEffort };
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 81, Faults = s_dropFivePercent }, options);
        const int Puts = 40;
        var written = 0;
        for (var i = 0; i < Puts; i++)
        {
            try
            {
                var put = await store.Run(store[s_clients[i % s_clients.Length]].PutAsync(Key.FromString($"lossy-write-{i % 4}"), KeyValueServiceTests.Bytes($"value {i}")));
                written += put.Succeeded ? 1 : 0;
            }
            catch (KeyValueStoreException ex) when (ex.Reason == KeyValueFailure.TimedOut)
            {
                // Lost on the way: it may or may not have been applied, but never twice.
            }
        }

        var acknowledged = store.Cube.LiveNodes.Sum(node => node.GetService<KeyValueService>()!.Statistics.WritesAcknowledged);
        Assert.InRange(acknowledged, written, Puts);
        Assert.True(written > Puts / 2, $"only {written} of {Puts} writes answered");
    }

    /// <summary>Writes "value" under the key, asking again after a timeout (an unconditional put may be repeated).</summary>
    private static async Task PutUntilWrittenAsync(StoreCube store, KeyValueService client, Key key)
    {
        for (var attempt = 0; attempt < 10; attempt++)
        {
            try
            {
                await store.Run(client.PutAsync(key, KeyValueServiceTests.Bytes("value")));
                return;
            }
            catch (KeyValueStoreException ex) when (ex.Reason == KeyValueFailure.TimedOut)
            {
            }
        }

        Assert.Fail($"{key} was not written in 10 attempts.");
    }

    /// <summary>Runs calls one at a time and keeps the longest one's virtual time.</summary>
    private sealed class CallTimer(StoreCube store)
    {
        public TimeSpan Slowest { get; private set; }

        public async Task<T> Run<T>(Task<T> call)
        {
            var start = store.Cube.Elapsed;
            var result = await store.Run(call);
            var took = store.Cube.Elapsed - start;
            Slowest = took > Slowest ? took : Slowest;
            return result;
        }
    }

    [Fact]
    public async Task WriteIsAcknowledgedWhenAReplicaHearsNothingForLongerThanTheReplicationTimeout()
    {
        var (store, key, servers, client) = await StartWithOneWrittenAsync("blackout", 12);
        var cube = (SimulatedCube)store.Cube;

        // The last replica hears nothing for a little more than one replication timeout, then all again.
        var replica = cube.FaultsAt(servers[2])!;
        replica.Faults = new FaultOptions { DropProbability = 1 };
        var put = store[client].PutAsync(key, KeyValueServiceTests.Bytes("two"));
        cube.RunFor(KeyValueServiceOptions.Default.ReplicationTimeout + TimeSpan.FromMilliseconds(50));
        replica.Faults = new FaultOptions { Delay = TimeSpan.FromMicroseconds(1) };
        var written = await store.Run(put);

        Assert.Equal(WriteStatus.Written, written.Status);
        Assert.Equal(1, store[servers[0]].Statistics.AcceptsSentAgain);
    }

    [Fact]
    public async Task WriteIsAcknowledgedWhenAReplicaAnswersLaterThanTwoReplicationTimeoutsButWithinTheRequestTimeout()
    {
        // Every frame the last replica receives arrives 250 ms late (less than a link's timeout, so it
        // stays in the key's set), longer than two replication timeouts of 100 ms.
        var options = KeyValueServiceOptions.Default with { ReplicationTimeout = TimeSpan.FromMilliseconds(100) };
        var key = Key.FromString("late-replica");
        var servers = KeySpace.For(s_shape).GetServersForKey(key, 3);
        var client = FailoverTests.ClientOutside(servers);
        var disks = new Dictionary<Coordinate, Storage.MemoryKeyValueStorage>();
        var cube = SimulatedCube.Start(s_shape, node => StoreCube.Register(node, disks, options), new SimulatedCubeOptions { Seed = 18, Faults = new FaultOptions { Delay = TimeSpan.FromMicroseconds(1) } });
        var store = new StoreCube(cube, disks);
        store.PassStartLease(options);
        Assert.Equal(WriteStatus.Written, (await store.Run(store[client].PutAsync(key, KeyValueServiceTests.Bytes("one")))).Status);
        cube.FaultsAt(servers[2])!.Faults = new FaultOptions { Delay = TimeSpan.FromMilliseconds(250) };

        var written = await store.Run(store[client].PutAsync(key, KeyValueServiceTests.Bytes("two")));

        // The accept sent again waits the rest of the client's time, so the late answer acknowledges it.
        Assert.Equal(WriteStatus.Written, written.Status);
        Assert.Equal(1, store[servers[0]].Statistics.AcceptsSentAgain);
        Assert.True(cube[servers[0]].Reachability.IsReachable(servers[2]));
        Assert.Equal("two", KeyValueServiceTests.Text(store.DiskOf(servers[2]).Read(key)!.Value!));
    }

    [Fact]
    public async Task WriteIsAcknowledgedWhenAReplicaTurnsUnreachableForAMomentWhileItsAcceptIsOut()
    {
        var (store, key, servers, client) = await StartWithOneWrittenAsync("flap", 13);
        var cube = (SimulatedCube)store.Cube;

        // Every link of the last replica is cut until the primary's view loses it (the primary fails
        // its accept as unreachable), then restored well within one replication timeout.
        var links = Enum.GetValues<LinkDirection>();
        var put = store[client].PutAsync(key, KeyValueServiceTests.Bytes("two"));
        foreach (var link in links)
        {
            cube.Network.CutLink(servers[2], link);
        }

        Assert.True(cube.RunUntil(() => !cube[servers[0]].Reachability.IsReachable(servers[2]), TimeSpan.FromSeconds(2)));
        foreach (var link in links)
        {
            cube.Network.RestoreLink(servers[2], link);
        }

        var written = await store.Run(put);

        Assert.Equal(WriteStatus.Written, written.Status);

        // The view dropped the replica from the key's set, so the primary finished the write on the new set at once.
        Assert.Equal(1, store[servers[0]].Statistics.WritesFinishedOnANewSet);
    }

    [Fact]
    public async Task WriteIsAcknowledgedOnTheNewReplicaSetWhenAReplicaDiesWhileItsAcceptIsOut()
    {
        var log = new ListLoggerFactory();
        var (store, key, servers, client) = await StartWithOneWrittenAsync("crash", 14, log);
        var cube = (SimulatedCube)store.Cube;

        // The last replica dies as the write starts: its accept fails before the views drop it.
        var put = store[client].PutAsync(key, KeyValueServiceTests.Bytes("two"));
        cube.Kill(servers[2]);
        var written = await store.Run(put);

        Assert.Equal(WriteStatus.Written, written.Status);
        var newSet = KeySpace.For(s_shape).GetServersForKey(key, 3, cube[servers[0]].Reachability);
        Assert.DoesNotContain(servers[2], newSet);
        foreach (var server in newSet)
        {
            Assert.Equal("two", KeyValueServiceTests.Text(store.DiskOf(server).Read(key)!.Value!));
        }

        Assert.Equal(1, store[servers[0]].Statistics.WritesFinishedOnANewSet);
        Assert.Equal(0, store[servers[0]].Statistics.AcceptsSentAgain);

        // An acknowledged write is not logged as one whose outcome is unknown.
        Assert.DoesNotContain(log.Lines, line => line.Message.Contains("may or may not take effect", StringComparison.Ordinal));
    }

    [Fact]
    public async Task WriteIsNotFinishedOnANewSetWhenThisServerNoLongerReachesAMajority()
    {
        // Two servers: when one is lost, the other reaches 1 of 2, no majority, and serves nothing (camcubeos 5.2 under a partition).
        var shape = new TorusShape(2, 1, 1);
        var key = Key.FromString("alone");
        var servers = KeySpace.For(shape).GetServersForKey(key, 3);
        var disks = new Dictionary<Coordinate, Storage.MemoryKeyValueStorage>();
        var cube = SimulatedCube.Start(shape, node => StoreCube.Register(node, disks, null), new SimulatedCubeOptions { Seed = 15, Faults = new FaultOptions { Delay = TimeSpan.FromMicroseconds(1) } });
        var store = new StoreCube(cube, disks);
        store.PassStartLease(null);
        Assert.Equal(WriteStatus.Written, (await store.Run(store[servers[0]].PutAsync(key, KeyValueServiceTests.Bytes("one")))).Status);

        // The primary hears nothing more as its accept leaves: its view drops the replica only after the link timeout.
        cube.FaultsAt(servers[0])!.Faults = new FaultOptions { DropProbability = 1 };
        var put = store[servers[0]].PutAsync(key, KeyValueServiceTests.Bytes("two"));

        var error = await Assert.ThrowsAsync<KeyValueStoreException>(() => store.Run(put));

        Assert.Equal(KeyValueFailure.TimedOut, error.Reason);
        Assert.Equal(0, store[servers[0]].Statistics.WritesFinishedOnANewSet);
    }

    [Fact]
    public async Task WriteThatTimedOutIsLoggedAtTheServerItWasAskedThroughWithTheExchangeThatGotNoReply()
    {
        var log = new ListLoggerFactory();
        var (store, key, servers, client) = await StartWithOneWrittenAsync("unheard", 16, log);
        var cube = (SimulatedCube)store.Cube;

        // The primary hears nothing from now on: the write's request and every copy of it are lost.
        cube.FaultsAt(servers[0])!.Faults = new FaultOptions { DropProbability = 1 };
        var put = store[client].PutAsync(key, KeyValueServiceTests.Bytes("two"));

        var error = await Assert.ThrowsAsync<KeyValueStoreException>(() => store.Run(put));

        // The front-end's reply line says only "may or may not have taken effect"; the log says why.
        Assert.Equal(KeyValueFailure.TimedOut, error.Reason);
        var line = Assert.Single(log.Lines, line => line.Message.Contains("asked through this server may or may not have taken effect", StringComparison.Ordinal));
        Assert.Equal(LogLevel.Warning, line.Level);
        Assert.Contains(key.ToString(), line.Message, StringComparison.Ordinal);
        Assert.Contains(error.Message, line.Message, StringComparison.Ordinal);
    }

    /// <summary>
    /// A simulated cube with a fault decorator on every node (1 µs of delay: <see cref="FaultOptions.None"/>
    /// would leave them out), to turn up on one later, and "one" written to the key named
    /// <paramref name="name"/> through a server outside its replica set.
    /// </summary>
    private static async Task<(StoreCube Store, Key Key, Coordinate[] Servers, Coordinate Client)> StartWithOneWrittenAsync(string name, int seed, ListLoggerFactory? log = null)
    {
        var key = Key.FromString(name);
        var servers = KeySpace.For(s_shape).GetServersForKey(key, 3);
        var client = FailoverTests.ClientOutside(servers);
        var disks = new Dictionary<Coordinate, Storage.MemoryKeyValueStorage>();
        var cube = SimulatedCube.Start(s_shape, node => StoreCube.Register(node, disks, null), new SimulatedCubeOptions { Seed = seed, Faults = new FaultOptions { Delay = TimeSpan.FromMicroseconds(1) }, LoggerFactory = log });
        var store = new StoreCube(cube, disks);
        store.PassStartLease(null);
        Assert.Equal(WriteStatus.Written, (await store.Run(store[client].PutAsync(key, KeyValueServiceTests.Bytes("one")))).Status);
        return (store, key, servers, client);
    }
}
