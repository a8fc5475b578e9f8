using CamCube.Testing;
using static CamCube.Services.KeyValue.Tests.KeyValueServiceTests;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>
/// Front-end leases (docs/key-value-store.md, "Read leases"): a server that read a key through its
/// primary answers the key's next gets itself while the lease runs, and no longer once a write of
/// the key has begun: the primary has each holder drop its lease first, or waits it out when the
/// holder does not answer. The register workload (LinearizabilityTests) checks the same with faults.
/// </summary>
public sealed class FrontEndLeaseTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Key s_key = Key.FromString("front-end-leased");
    private static readonly Coordinate[] s_servers = KeySpace.For(s_shape).GetServersForKey(s_key, 3);
    private static readonly Coordinate s_reader = FailoverTests.ClientOutside(s_servers);
    private static readonly Coordinate s_writer = OtherClient();
    private static readonly KeyValueServiceOptions s_options = new() { ReadLease = TimeSpan.FromSeconds(1), FrontEndLease = TimeSpan.FromMilliseconds(500) };

    [Fact]
    public async Task ServerAnswersAKeysNextGetsItselfWhileItsLeaseRuns()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        await store.Run(store[s_writer].PutAsync(s_key, Bytes("one")));

        for (var i = 0; i < 3; i++)
        {
            Assert.Equal("one", Text((await store.Run(store[s_reader].GetAsync(s_key)))!.Value));
        }

        Assert.Equal(1, store[s_servers[0]].Statistics.FrontEndLeasesGranted);
        Assert.Equal(1, store[s_servers[0]].Statistics.ReadsUnderLease);
        Assert.Equal(2, store[s_reader].Statistics.ReadsFromFrontEndLease);

        // The lease ran out: the next get asks the primary again.
        store.Cube.RunFor(s_options.FrontEndLease);
        await store.Run(store[s_reader].GetAsync(s_key));
        Assert.Equal(2, store[s_servers[0]].Statistics.ReadsUnderLease);
        Assert.Equal(2, store[s_reader].Statistics.ReadsFromFrontEndLease);
    }

    /// <summary>
    /// The key's set changed under its primary (servers came back in front of it in the walk): the next
    /// primary asks it, now a replica, to promise. The replicas that granted it its lease may not be in
    /// the new set, so it must itself hold the newer primary back while a front-end lease it granted
    /// runs (found by seed 301 of the mostly-read register workload: a holder answered with the old
    /// value after the newer primary's write was acknowledged).
    /// </summary>
    [Fact]
    public async Task PrimaryRefusesToPromiseANewerBallotToAnotherServerWhileAFrontEndLeaseItGrantedRuns()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        var put = await store.Run(store[s_writer].PutAsync(s_key, Bytes("one")));
        Assert.Equal("one", Text((await store.Run(store[s_reader].GetAsync(s_key)))!.Value));
        Assert.Equal(1, store[s_servers[0]].Statistics.FrontEndLeasesGranted);
        var prepare = new Messages.Prepare { Key = KeyValueService.KeyBytes(s_key), Ballot = (put.Version >> 24) + 1 };

        var refused = await store.Run(store[s_servers[0]], s => s.OnPrepareAsync(prepare, s_servers[1]));
        Assert.False(refused.Promised);
        Assert.InRange(refused.LeaseWaitMicroseconds, 1, (long)(s_options.FrontEndLease + s_options.LeaseDriftMargin).TotalMicroseconds);

        store.Cube.RunFor(TimeSpan.FromMicroseconds(refused.LeaseWaitMicroseconds));
        Assert.True((await store.Run(store[s_servers[0]], s => s.OnPrepareAsync(prepare, s_servers[1]))).Promised);
    }

    [Fact]
    public async Task GetAfterAWriteThroughAnotherServerReadsTheNewValueWhileTheOldLeaseWouldStillRun()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        await store.Run(store[s_writer].PutAsync(s_key, Bytes("one")));
        Assert.Equal("one", Text((await store.Run(store[s_reader].GetAsync(s_key)))!.Value));

        await store.Run(store[s_writer].PutAsync(s_key, Bytes("two")));

        Assert.Equal("two", Text((await store.Run(store[s_reader].GetAsync(s_key)))!.Value));
        Assert.Equal(1, store[s_servers[0]].Statistics.FrontEndLeasesDropped);
        Assert.Equal(0, store[s_reader].Statistics.ReadsFromFrontEndLease);
    }

    [Fact]
    public async Task WriteThroughTheHolderItselfDropsItsLeaseWithoutARoundTripAndItsNextGetReadsTheNewValue()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);

        // Written through the primary itself, so the reader is the only holder of a lease.
        await store.Run(store[s_servers[0]].PutAsync(s_key, Bytes("one")));
        Assert.Equal("one", Text((await store.Run(store[s_reader].GetAsync(s_key)))!.Value));

        await store.Run(store[s_reader].PutAsync(s_key, Bytes("two")));

        Assert.Equal(0, store[s_servers[0]].Statistics.FrontEndLeasesDropped);
        Assert.Equal(0, store[s_servers[0]].Statistics.FrontEndLeaseWaits);
        Assert.Equal("two", Text((await store.Run(store[s_reader].GetAsync(s_key)))!.Value));
        Assert.Equal("two", Text((await store.Run(store[s_reader].GetAsync(s_key)))!.Value));

        // The write's answer granted the writer a lease on the value it wrote: both gets were answered from it.
        Assert.Equal(1, store[s_reader].Statistics.FrontEndLeasesTakenOnWrites);
        Assert.Equal(2, store[s_reader].Statistics.ReadsFromFrontEndLease);
    }

    [Fact]
    public async Task WriterAnswersItsNextGetsFromTheLeaseItsWriteEarnedUntilAnotherServerWrites()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        await store.Run(store[s_servers[0]].PutAsync(s_key, Bytes("zero")));
        var readsAtPrimary = store[s_servers[0]].Statistics.ReadsUnderLease;

        var one = await store.Run(store[s_writer].PutAsync(s_key, Bytes("one")));
        var read = await store.Run(store[s_writer].GetAsync(s_key));

        Assert.Equal("one", Text(read!.Value));
        Assert.Equal(one.Version, read.Version);
        Assert.Equal(1, store[s_servers[0]].Statistics.FrontEndLeasesGrantedOnWrites);
        Assert.Equal(1, store[s_writer].Statistics.ReadsFromFrontEndLease);
        Assert.Equal(readsAtPrimary, store[s_servers[0]].Statistics.ReadsUnderLease);

        // Another server's write has the writer drop its lease first.
        await store.Run(store[s_reader].PutAsync(s_key, Bytes("two")));
        Assert.Equal(1, store[s_servers[0]].Statistics.FrontEndLeasesDropped);
        Assert.Equal("two", Text((await store.Run(store[s_writer].GetAsync(s_key)))!.Value));
        Assert.Equal(1, store[s_writer].Statistics.ReadsFromFrontEndLease);
    }

    [Fact]
    public async Task WriterAnswersWithTheNewerOfTwoOfItsWritesOfAKeyWhenTheirAnswersArriveInEitherOrder()
    {
        // The writer's received frames are held back at random, so the answer to the older write often arrives last.
        var faults = new Transport.Faults.FaultOptions { ReorderProbability = 0.5, ReorderDelay = TimeSpan.FromMilliseconds(3) };
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 31, Faults = new Transport.Faults.FaultOptions { Delay = TimeSpan.FromMicroseconds(1) } }, s_options);
        var cube = (SimulatedCube)store.Cube;
        store.PassStartLease(s_options);
        cube.FaultsAt(s_writer)!.Faults = faults;
        for (var round = 0; round < 40; round++)
        {
            var key = Key.FromString($"twice-{round}");
            var first = store[s_writer].PutAsync(key, Bytes("first"));
            var second = store[s_writer].PutAsync(key, Bytes("second"));
            var (a, b) = (await store.Run(first), await store.Run(second));
            var newest = a.Version > b.Version ? "first" : "second";

            Assert.Equal(newest, Text((await store.Run(store[s_writer].GetAsync(key)))!.Value));
        }
    }

    [Fact]
    public async Task RefusedOrDeletingWriteEarnsNoLease()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        await store.Run(store[s_servers[0]].PutAsync(s_key, Bytes("one")));

        var refused = await store.Run(store[s_writer].PutAsync(s_key, Bytes("two"), WriteCondition.IfAbsent));
        Assert.Equal(WriteStatus.ConditionFailed, refused.Status);
        Assert.Equal(WriteStatus.Written, (await store.Run(store[s_writer].DeleteAsync(s_key))).Status);
        Assert.Null(await store.Run(store[s_writer].GetAsync(s_key)));

        Assert.Equal(0, store[s_servers[0]].Statistics.FrontEndLeasesGrantedOnWrites);
        Assert.Equal(0, store[s_writer].Statistics.ReadsFromFrontEndLease);
    }

    [Fact]
    public async Task WriteWaitsOutTheLeaseOfAHolderThatCannotBeReachedBeforeItIsAcknowledged()
    {
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 21 }, s_options);
        var cube = (SimulatedCube)store.Cube;
        await store.Run(store[s_writer].PutAsync(s_key, Bytes("one")));
        await store.Run(store[s_reader].GetAsync(s_key));
        var leaseGrantedAt = cube.Elapsed;

        // The reader is cut off from everyone: the primary cannot have it drop its lease.
        foreach (var link in Enum.GetValues<LinkDirection>())
        {
            cube.Network.CutLink(s_reader, link);
        }

        var written = await store.Run(store[s_writer].PutAsync(s_key, Bytes("two")));

        Assert.Equal(WriteStatus.Written, written.Status);
        Assert.Equal(1, store[s_servers[0]].Statistics.FrontEndLeaseWaits);
        Assert.True(cube.Elapsed - leaseGrantedAt >= s_options.FrontEndLease, $"acknowledged {cube.Elapsed - leaseGrantedAt} after the lease was granted");
    }

    private static Coordinate OtherClient()
    {
        for (long i = s_shape.ServerCount - 1; i >= 0; i--)
        {
            var server = s_shape.CoordinateAt(i);
            if (Array.IndexOf(s_servers, server) < 0 && server != s_reader)
            {
                return server;
            }
        }

        throw new InvalidOperationException("No second client.");
    }
}
