using CamCube.Messaging;
using CamCube.Testing;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>The store on the reliable transport (<see cref="MessageDelivery.Reliable"/>): values larger than a packet.</summary>
public sealed class ReliableDeliveryTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Key s_key = Key.FromString("large");
    private static readonly Coordinate[] s_servers = KeySpace.For(s_shape).GetServersForKey(s_key, 3);
    private static readonly KeyValueServiceOptions s_options = new() { Delivery = MessageDelivery.Reliable, ValueBytesMax = 1 << 20 };

    [Fact]
    public async Task ValueOfManyPacketsIsStoredWholeOnEveryReplicaAndSurvivesThePrimarysKill()
    {
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 21 }, s_options);
        var client = FailoverTests.ClientOutside(s_servers);
        var value = Enumerable.Range(0, 300_000).Select(i => (byte)(i * 7)).ToArray();
        Assert.Equal(1 << 20, store[client].ValueBytesMax);

        var put = await store.Run(store[client].PutAsync(s_key, value));
        Assert.All(s_servers, server => Assert.Equal(value, store.DiskOf(server).Read(s_key)!.Value));

        store.Cube.Kill(s_servers[0]);
        var got = await store.Run(store[client].GetAsync(s_key));
        Assert.Equal(put.Version, got!.Version);
        Assert.Equal(value, got.Value.ToArray());
    }

    [Fact]
    public async Task ServerBackBeforeTCatchesUpOnALargeValueItMissed()
    {
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 22 }, s_options);
        var client = FailoverTests.ClientOutside(s_servers);
        await store.Run(store[client].PutAsync(s_key, new byte[1_000]));
        store.Cube.Kill(s_servers[2]);
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        await store.Run(store[client].PutAsync(s_key, new byte[200_000]));

        store.Cube.Restart(s_servers[2]);
        var caughtUp = store.Cube.RunUntil(() => store[s_servers[2]].Statistics.KeysReceived > 0 && store.DiskOf(s_servers[2]).Read(s_key)!.Value!.Length == 200_000, TimeSpan.FromSeconds(5));
        Assert.True(caughtUp, string.Join("; ", store.Cube.LiveNodes.Select(n => $"{n.Self} offered {n.GetService<KeyValueService>()!.Statistics.KeysOffered} sent {n.GetService<KeyValueService>()!.Statistics.CatchUpKeysSent}")));
        Assert.Equal(1, store[s_servers[2]].Statistics.KeysReceived);
        Assert.Equal(200_000, store[s_servers[2]].Statistics.BytesReceived);
    }
}
