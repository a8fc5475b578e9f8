using CamCube.Testing;
using static CamCube.Services.KeyValue.Tests.KeyValueServiceTests;

namespace CamCube.Services.KeyValue.Tests;

public sealed class TombstonePurgeTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Key s_key = Key.FromString("purged");
    private static readonly Coordinate[] s_servers = KeySpace.For(s_shape).GetServersForKey(s_key, 3);
    private static readonly Coordinate s_client = FailoverTests.ClientOutside(s_servers);
    private static readonly KeyValueServiceOptions s_options = new() { TombstoneLifetime = TimeSpan.FromSeconds(10) };

    [Fact]
    public async Task TombstoneIsPurgedFromEveryReplicaWhenItsLifetimeHasPassedAndVersionsGoOnAboveIt()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        await store.Run(store[s_client].PutAsync(s_key, Bytes("doomed")));
        var deleted = await store.Run(store[s_client].DeleteAsync(s_key));
        store.Cube.RunFor(TimeSpan.FromSeconds(9));
        Assert.All(s_servers, server => Assert.True(store.DiskOf(server).Read(s_key)!.IsDeleted));

        store.Cube.RunFor(TimeSpan.FromSeconds(2));
        Assert.All(s_servers, server => Assert.Null(store.DiskOf(server).Read(s_key)));
        Assert.Equal(1, store[s_servers[0]].Statistics.TombstonesPurged);
        Assert.Null(await store.Run(store[s_client].GetAsync(s_key)));

        var again = await store.Run(store[s_client].PutAsync(s_key, Bytes("back")));
        Assert.True(again.Version > deleted.Version, $"version {again.Version} after the purged tombstone's {deleted.Version}");
        Assert.All(s_servers, server => Assert.Equal(again.Version, store.DiskOf(server).Read(s_key)!.Version));
    }

    [Fact]
    public async Task TombstoneIsKeptWhenAReplicaIsDownWhenItsLifetimeHasPassed()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        await store.Run(store[s_client].PutAsync(s_key, Bytes("doomed")));
        await store.Run(store[s_client].DeleteAsync(s_key));
        Assert.True(store.Cube.Kill(s_servers[2]));

        store.Cube.RunFor(TimeSpan.FromSeconds(11));
        Assert.True(store.DiskOf(s_servers[0]).Read(s_key)!.IsDeleted);
        Assert.True(store.DiskOf(s_servers[1]).Read(s_key)!.IsDeleted);
        Assert.Equal(0, store[s_servers[0]].Statistics.TombstonesPurged);
    }

    [Fact]
    public async Task TombstoneIsKeptWhenItsDeleteWasAcknowledgedWithAServerStandingInForAFailedOne()
    {
        // The failed server still holds the value on its disk: were the tombstone purged, its return could bring the value back.
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, s_options);
        await store.Run(store[s_client].PutAsync(s_key, Bytes("doomed")));
        Assert.True(store.Cube.Kill(s_servers[2]));
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        await store.Run(store[s_client].DeleteAsync(s_key));

        store.Cube.RunFor(TimeSpan.FromSeconds(11));
        Assert.True(store.DiskOf(s_servers[0]).Read(s_key)!.IsDeleted);
        Assert.True(store.DiskOf(s_servers[1]).Read(s_key)!.IsDeleted);
        Assert.Equal(0, store[s_servers[0]].Statistics.TombstonesPurged);
    }
}
