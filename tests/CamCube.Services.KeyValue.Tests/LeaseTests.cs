using CamCube.Services.KeyValue.Messages;
using CamCube.Testing;
using static CamCube.Services.KeyValue.Tests.KeyValueServiceTests;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>
/// Read leases (docs/key-value-store.md): the primary answers reads alone while the lease its
/// replicas granted runs; a newer primary gets their promises only once it has run out, so the old
/// primary never answers a read that a newer primary's write has made stale.
/// </summary>
public sealed class LeaseTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Key s_key = Key.FromString("leased");
    private static readonly Coordinate[] s_servers = KeySpace.For(s_shape).GetServersForKey(s_key, 3);
    private static readonly Coordinate s_client = FailoverTests.ClientOutside(s_servers);
    // The primary's own lease, seen at the primary: the client's server takes no front-end lease (FrontEndLeaseTests),
    // and the primary renews none in bulk, so each key's lease ends one lease after its last round (LeaseRenewalTests).
    private static readonly KeyValueServiceOptions s_options = new() { ReadLease = TimeSpan.FromSeconds(1), LeaseDriftMargin = TimeSpan.FromMilliseconds(50), FrontEndLease = TimeSpan.Zero, LeaseRenewalIdleTime = TimeSpan.Zero };

    [Fact]
    public async Task PrimaryAnswersReadsWithoutAskingItsReplicasWhileItsLeaseRuns()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        await store.Run(store[s_client].PutAsync(s_key, Bytes("value")));
        var primary = store[s_servers[0]].Statistics;

        for (var i = 0; i < 3; i++)
        {
            Assert.Equal("value", Text((await store.Run(store[s_client].GetAsync(s_key)))!.Value));
        }

        // The write left its value held at the primary: each read is answered in the upcall that brought it.
        Assert.Equal((3, 0, 3), (primary.ReadsUnderLease, primary.ReadConfirms, primary.ReadsAnsweredAtOnce));

        // The lease ran out: the next read asks the replicas, which renews it for the read after.
        store.Cube.RunFor(s_options.ReadLease);
        await store.Run(store[s_client].GetAsync(s_key));
        await store.Run(store[s_client].GetAsync(s_key));
        Assert.Equal((4, 1, 4), (primary.ReadsUnderLease, primary.ReadConfirms, primary.ReadsAnsweredAtOnce));
    }

    [Fact]
    public async Task EveryReadAsksTheReplicasWhenLeasesAreOff()
    {
        var options = s_options with { ReadLease = TimeSpan.Zero };
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, options);
        await store.Run(store[s_client].PutAsync(s_key, Bytes("value")));
        for (var i = 0; i < 3; i++)
        {
            await store.Run(store[s_client].GetAsync(s_key));
        }

        var primary = store[s_servers[0]].Statistics;
        Assert.Equal((0, 3), (primary.ReadsUnderLease, primary.ReadConfirms));
        var ballot = (await store.Run(store[s_client].GetAsync(s_key)))!.Version >> 24;
        Assert.True((await store.Run(store[s_servers[1]], s => s.OnPrepareAsync(new Prepare { Key = KeyValueService.KeyBytes(s_key), Ballot = ballot + 1 }))).Promised);
    }

    /// <summary>
    /// The old primary is cut off from the newer one, played by the test from the key's second
    /// server: every 100 ms it asks both replicas to promise and, once both did, writes there; the
    /// old primary is asked to read each time. No read may miss the newer write.
    /// </summary>
    [Fact]
    public async Task NewPrimaryTakesTheKeyOverOnlyAfterTheLeaseRanOutAndTheOldPrimaryThenServesNoStaleRead()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        var leaseStart = store.Cube.Elapsed;
        var put = await store.Run(store[s_client].PutAsync(s_key, Bytes("before")));
        var ballot = (put.Version >> 24) + 1;
        var newPrimary = s_servers[1];
        TimeSpan? writtenAt = null;
        var old = store[s_servers[0]].Statistics;
        var takeOversBeforeTheWrite = -1L;

        while ((writtenAt is null && store.Cube.Elapsed < leaseStart + (5 * s_options.ReadLease)) || store.Cube.Elapsed < writtenAt + TimeSpan.FromMilliseconds(300))
        {
            if (writtenAt is null && !await store.PromisedAtAsync(s_servers[1..], new Prepare { Key = KeyValueService.KeyBytes(s_key), Ballot = ballot }, newPrimary))
            {
                ballot++;
            }
            else if (writtenAt is null)
            {
                var newer = (ballot << 24) | 1;
                foreach (var replica in s_servers[1..])
                {
                    Assert.True((await store.Run(store[replica], s => s.OnAcceptAsync(new Accept { Key = KeyValueService.KeyBytes(s_key), Ballot = newer >> 24, Version = newer, Value = Bytes("newer") }, newPrimary))).Ok);
                }

                writtenAt = store.Cube.Elapsed;
                takeOversBeforeTheWrite = old.TakeOvers;
            }

            var read = await store.Run(store[s_client].GetAsync(s_key));
            Assert.True(
                Text(read!.Value) == (writtenAt is null ? "before" : "newer"),
                $"At {(store.Cube.Elapsed - leaseStart).TotalMilliseconds:0} ms the old primary read '{Text(read.Value)}' (the newer primary wrote at {(writtenAt - leaseStart)?.TotalMilliseconds:0} ms).");
            if (takeOversBeforeTheWrite >= 0)
            {
                // The old primary's lease had run out: its first read after the newer write found the newer ballot and took the key back.
                Assert.Equal(takeOversBeforeTheWrite + 1, old.TakeOvers);
                takeOversBeforeTheWrite = -1;
            }

            store.Cube.RunFor(TimeSpan.FromMilliseconds(100));
        }

        Assert.NotNull(writtenAt);
        Assert.True(writtenAt - leaseStart >= s_options.ReadLease - s_options.LeaseDriftMargin, $"The newer primary got its promises {(writtenAt - leaseStart)?.TotalMilliseconds:0} ms after the old primary's lease began.");
    }

    [Fact]
    public async Task ReplicaRefusesToPromiseForOneLeaseAfterItRestarts()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        var put = await store.Run(store[s_client].PutAsync(s_key, Bytes("value")));
        store.Cube.RunFor(s_options.ReadLease);
        store.Cube.Kill(s_servers[1]);
        store.Cube.Restart(s_servers[1]);
        var prepare = new Prepare { Key = KeyValueService.KeyBytes(s_key), Ballot = (put.Version >> 24) + 1 };

        var refused = await store.Run(store[s_servers[1]], s => s.OnPrepareAsync(prepare));
        Assert.False(refused.Promised);
        Assert.InRange(refused.LeaseWaitMicroseconds, 1, (long)s_options.ReadLease.TotalMicroseconds);

        store.Cube.RunFor(s_options.ReadLease);
        Assert.True((await store.Run(store[s_servers[1]], s => s.OnPrepareAsync(prepare))).Promised);
    }

    [Theory]
    [InlineData(-1, 0, "ReadLease")]
    [InlineData(1000, -1, "LeaseDriftMargin")]
    [InlineData(100, 100, "LeaseDriftMargin")]
    [InlineData(1000, 50, "LeaseRenewalIdleTime")]
    public void OptionsAreRefusedWhenTheLeaseOrItsMarginIsOutOfRange(int leaseMilliseconds, int marginMilliseconds, string named)
    {
        var options = new KeyValueServiceOptions
        {
            ReadLease = TimeSpan.FromMilliseconds(leaseMilliseconds),
            LeaseDriftMargin = TimeSpan.FromMilliseconds(marginMilliseconds),
            LeaseRenewalIdleTime = named == nameof(KeyValueServiceOptions.LeaseRenewalIdleTime) ? TimeSpan.FromMilliseconds(-1) : TimeSpan.FromMinutes(1),
        };
        var refused = Assert.Throws<ArgumentOutOfRangeException>(options.Validate);
        Assert.Equal(named, refused.ParamName);
    }
}
