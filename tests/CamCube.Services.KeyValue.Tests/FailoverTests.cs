using CamCube.Testing;
using static CamCube.Services.KeyValue.Tests.KeyValueServiceTests;

namespace CamCube.Services.KeyValue.Tests;

public sealed class FailoverTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Key s_key = Key.FromString("fail-over");
    private static readonly Coordinate[] s_servers = KeySpace.For(s_shape).GetServersForKey(s_key, 3);

    [Fact]
    public async Task NextServerServesTheNewestValueWhenThePrimaryIsKilled()
    {
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 7 });
        var client = ClientOutside(s_servers);
        var put = await store.Run(store[client].PutAsync(s_key, Bytes("before")));

        store.Cube.Kill(s_servers[0]);
        var got = await store.Run(store[client].GetAsync(s_key));
        Assert.Equal(put.Version, got!.Version);
        Assert.Equal("before", Text(got.Value));

        var after = await store.Run(store[client].PutAsync(s_key, Bytes("after"), WriteCondition.IfVersion(put.Version)));
        Assert.Equal(WriteStatus.Written, after.Status);
        Assert.True(after.Version > put.Version, $"{after.Version} should exceed {put.Version}: versions survive fail-over.");
        Assert.Equal(after.Version, store.DiskOf(s_servers[1]).Read(s_key)!.Version);
    }

    [Fact]
    public async Task NextServerTakesTheKeyOverAsSoonAsThePrimaryIsSeenDeadAndServesWithinOneReadLease()
    {
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 9 });
        var writer = ClientOutside(s_servers);
        var put = await store.Run(store[writer].PutAsync(s_key, Bytes("before")));

        // The key idles long enough for its read lease to be renewed in bulk: the new primary must
        // wait out the lease the dead one held, and no longer.
        store.Cube.RunFor(KeyValueServiceOptions.Default.ReadLease * 2);
        var takeOvers = store[s_servers[1]].Statistics.TakeOvers;
        store.Cube.Kill(s_servers[0]);
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        var seen = store.Cube.Elapsed;

        // A reader that never touched the key (the writer would answer from its front-end lease).
        var reader = ClientOutside([.. s_servers, writer]);
        var got = await store.Run(store[reader].GetAsync(s_key));
        var took = store.Cube.Elapsed - seen;

        Assert.Equal(put.Version, got!.Version);
        Assert.True(store[s_servers[1]].Statistics.TakeOvers > takeOvers, "the next server in GetServersForKey order did not take the key over");
        var bound = KeyValueServiceOptions.Default.ReadLease + TimeSpan.FromMilliseconds(100);
        Assert.True(took <= bound, $"the first get after the primary was seen dead took {took.TotalMilliseconds:0} virtual ms (at most {bound.TotalMilliseconds:0}: the dead primary's lease and a round trip)");
    }

    [Fact]
    public async Task RestartedPrimaryWithAnEmptyDiskContinuesFromTheReplicasNewestVersion()
    {
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 8 });
        var client = ClientOutside(s_servers);
        await store.Run(store[client].PutAsync(s_key, Bytes("one")));
        store.Cube.Kill(s_servers[0]);
        var two = await store.Run(store[client].PutAsync(s_key, Bytes("two")));

        store.Wipe(s_servers[0]);
        store.Cube.Restart(s_servers[0]);
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        var got = await store.Run(store[client].GetAsync(s_key));
        Assert.Equal(two.Version, got!.Version);
        Assert.Equal("two", Text(got.Value));
        Assert.Equal(two.Version, store.DiskOf(s_servers[0]).Read(s_key)!.Version);
    }

    [Fact]
    public async Task PrimaryKeepsServingWithoutALeasesPauseWhenAReplicaRestartsAndTheReplicaGetsWhatItMissed()
    {
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 10 });
        var client = ClientOutside(s_servers);
        var primary = store[s_servers[0]].Statistics;
        await store.Run(store[client].PutAsync(s_key, Bytes("one")));
        var takeOvers = primary.TakeOvers;
        store.Cube.Kill(s_servers[1]);
        var two = await store.Run(store[client].PutAsync(s_key, Bytes("two")));

        store.Cube.Restart(s_servers[1]);
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        // Read through a server that did not write the key: the writer would answer from the lease its write earned.
        var reader = ClientOutside([.. s_servers, client]);
        var start = store.Cube.Elapsed;
        var got = await store.Run(store[reader].GetAsync(s_key));
        var took = store.Cube.Elapsed - start;

        Assert.Equal(two.Version, got!.Version);

        // Virtual time: a new ballot would wait for the restarted replica's start lease (2 s).
        Assert.True(took < TimeSpan.FromMilliseconds(100), $"The first get after the replica came back took {took.TotalMilliseconds} virtual ms.");
        Assert.Equal(takeOvers, primary.TakeOvers);
        Assert.Equal(2, primary.SetExtensions);
        Assert.Equal(two.Version, store.DiskOf(s_servers[1]).Read(s_key)!.Version);
    }

    [Fact]
    public async Task ValueSurvivesWhenTwoOfItsThreeServersAreKilled()
    {
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 9 });
        var client = ClientOutside(s_servers);
        var put = await store.Run(store[client].PutAsync(s_key, Bytes("sturdy")));

        store.Cube.Kill(s_servers[0]);
        store.Cube.Kill(s_servers[1]);
        var got = await store.Run(store[client].GetAsync(s_key));
        Assert.Equal(put.Version, got!.Version);
        Assert.Equal("sturdy", Text(got.Value));
    }

    internal static Coordinate ClientOutside(Coordinate[] servers)
    {
        var shape = s_shape;
        for (long i = 0; i < shape.ServerCount; i++)
        {
            if (Array.IndexOf(servers, shape.CoordinateAt(i)) < 0)
            {
                return shape.CoordinateAt(i);
            }
        }

        throw new InvalidOperationException("Every server holds the key.");
    }
}
