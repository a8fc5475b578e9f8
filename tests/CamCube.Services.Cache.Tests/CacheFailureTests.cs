using System.Text;
using CamCube.Packets;
using CamCube.Testing;

namespace CamCube.Services.Cache.Tests;

/// <summary>
/// The cache's rules for failures, one at a time (CacheWireFormat.md, the cache's guarantee): a
/// server cut off from the majority forgets what it held, a root new to a key answers writes only
/// after a copy lease, and a write whose server died moves to the key's new root. Each test fails
/// without its rule; <see cref="CacheConsistencyTests"/> checks them together on histories.
/// </summary>
public sealed class CacheFailureTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_requester = new(0, 0, 0);
    private static readonly TimeSpan s_lease = new CacheOptions().CopyLease;

    [Fact]
    public void ServerCutOffAndReconnectedServesNoValueItHeldBeforeThePartition()
    {
        var cube = Start(seed: 51);
        var (key, home) = KeyRootedAway(cube);
        Assert.Equal(CacheStatus.Stored, Run(cube, Set(cube, key, "before")).Status);

        cube.SetCutOff(home, cutOff: true);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(10)));
        Assert.Equal(CacheStatus.Stored, Run(cube, Set(cube, key, "during")).Status);
        cube.SetCutOff(home, cutOff: false);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(10)));

        // The home is the root again; it must not answer with what it held before it was cut off
        // (the stand-in flushed "during" when the home came back, so the item is gone: a miss).
        var get = Run(cube, Get(cube, key));
        Assert.Equal(CacheStatus.Miss, get.Status);
        Assert.True(At(cube, home).Statistics.ItemsFlushedOnFailure >= 1);
    }

    [Fact]
    public void WriteAtARootThatJustRestartedIsAnsweredOnlyAfterACopyLease()
    {
        var cube = Start(seed: 52);
        var (key, home) = KeyRootedAway(cube);
        Assert.Equal(CacheStatus.Stored, Run(cube, Set(cube, key, "first life")).Status);
        cube.Kill(home);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(10)));
        cube.Restart(home);
        var restartedAt = cube.Engine.Elapsed;
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(10)));
        Assert.True(cube.Engine.Elapsed - restartedAt < s_lease, "the views took longer than a lease to converge; the test proves nothing");

        var set = Run(cube, Set(cube, key, "second life"));

        // Copies granted by the home's first life may have answered until a lease after it died;
        // its second life cannot know them, so it waits a lease from its start.
        Assert.Equal(CacheStatus.Stored, set.Status);
        Assert.True(cube.Engine.Elapsed - restartedAt >= s_lease, $"answered {(cube.Engine.Elapsed - restartedAt).TotalMilliseconds} ms after the restart");
    }

    [Fact]
    public void WriteWhoseServerDiesBeforeItArrivesMovesToTheNewRootAndIsStored()
    {
        var cube = Start(seed: 53);
        var (key, home) = KeyRootedAway(cube);
        var requester = At(cube, s_requester);

        // The write leaves for the home, which dies before it arrives: its copies would go there for
        // ever; it moves to the stand-in root under a new id once the requester sees the home gone.
        var sent = Set(cube, key, "moved");
        cube.Kill(home);
        var set = Run(cube, sent);

        Assert.Equal(CacheStatus.Stored, set.Status);
        Assert.Equal(1, requester.Statistics.MovedWrites);
        var get = Run(cube, Get(cube, key));
        Assert.Equal(CacheStatus.Hit, get.Status);
        Assert.Equal("moved", Encoding.ASCII.GetString(get.Value));
    }

    [Fact]
    public void AnswerFromAStandInThatArrivesAfterTheHomeCameBackIsNotKeptAsACopy()
    {
        var cube = SimulatedCube.Start(s_shape, n => n.Register(new CacheService()), new SimulatedCubeOptions { Seed = 54 }).PastStartLease();
        var (key, home) = KeyRootedAway(cube);
        var primary = cube[s_requester].KeySpace.KeyCoordinateOf(CacheKeys.MemId(key));
        var secondaries = new KeyCoordinate[HotSpotReplicas.SecondaryCountMax];
        var holder = secondaries[..HotSpotReplicas.GetSecondaries(primary, new CacheOptions().SecondaryReplicaCount, s_shape, secondaries)]
            .Select(s => s.Home)
            .First(s => s != home && s_shape.Distance(s, home) > 1);

        // The home is cut off; a stand-in takes the key over and stores "during".
        cube.SetCutOff(home, cutOff: true);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(10)));
        Assert.True(cube[holder].KeySpace.TryGetRoot(primary, cube[holder].Reachability, out var standIn));
        Assert.NotEqual(home, standIn);
        Assert.Equal(CacheStatus.Stored, Run(cube, Set(cube, At(cube, holder), key, "during")).Status);

        // The home comes back and every view names it the root again. Then the stand-in's answer to
        // a miss the holder sent on just before it saw the home come back arrives, late.
        cube.SetCutOff(home, cutOff: false);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(10)));
        cube.RunFor(s_lease / 2);
        DeliverFill(cube, from: standIn, to: holder, key, "during");
        cube.RunUntilIdle();

        // The home acknowledges a write a lease after it regained the majority; it never heard of the
        // holder's copy, so only the holder can refuse it.
        Assert.Equal(CacheStatus.Stored, Run(cube, Set(cube, At(cube, holder), key, "after")).Status);
        var get = Run(cube, At(cube, holder).ExecuteAsync(new CacheRequest { Operation = CacheOperation.Get, Key = key }));

        Assert.Equal(CacheStatus.Hit, get.Status);
        Assert.Equal("after", Encoding.ASCII.GetString(get.Value));
    }

    /// <summary>Puts on the wire, one hop from <paramref name="to"/>, the answer <paramref name="from"/> a root that fills a copy of <paramref name="key"/> at <paramref name="to"/>, asked for now.</summary>
    private static void DeliverFill(SimulatedCube cube, Coordinate from, Coordinate to, byte[] key, string value)
    {
        var bytes = Encoding.ASCII.GetBytes(value);
        var packet = cube.Pool.Rent();
        packet.WriteHeader(CacheService.ServiceId, DestinationKind.Server, 16, from, KeyCoordinate.At(to, 0));
        var area = packet.PayloadArea;
        CacheMessage.Write(area, CacheMessageType.Response, RouteStage.Primary, 0, requestId: 999_999, to, cube[to].KeySpace.KeyCoordinateOf(CacheKeys.MemId(key)), (byte)CacheStatus.Hit, key);
        CacheMessage.SetSecondary(area, to);
        CacheMessage.SetLeaseStart(area, cube[to].TimeProvider.GetTimestamp());
        CacheMessage.SetValue(area, bytes.Length, 0);
        bytes.CopyTo(area[(CacheMessage.FixedBytes + key.Length)..]);
        packet.PayloadLength = CacheMessage.FixedBytes + key.Length + bytes.Length;
        var link = Enumerable.Range(0, LinkDirections.Count).Select(d => (LinkDirection)d).First(d => s_shape.HasLink(d));
        var neighbor = s_shape.Neighbor(to, link);
        Assert.True(cube.Network.GetTransport(neighbor).TrySend(link.Opposite(), packet), "the neighbour's link had no room");
    }

    private static SimulatedCube Start(int seed) =>
        SimulatedCube.Start(s_shape, n => n.Register(new CacheService(new CacheOptions { SecondaryReplicaCount = 0 })), new SimulatedCubeOptions { Seed = seed }).PastStartLease();

    private static CacheService At(SimulatedCube cube, Coordinate server) => cube[server].GetService<CacheService>()!;

    private static Task<CacheResponse> Set(SimulatedCube cube, byte[] key, string value) => Set(cube, At(cube, s_requester), key, value);

    private static Task<CacheResponse> Set(SimulatedCube cube, CacheService requester, byte[] key, string value) =>
        requester.ExecuteAsync(new CacheRequest { Operation = CacheOperation.Set, Key = key, Value = Encoding.ASCII.GetBytes(value) });

    private static Task<CacheResponse> Get(SimulatedCube cube, byte[] key) =>
        At(cube, s_requester).ExecuteAsync(new CacheRequest { Operation = CacheOperation.Get, Key = key });

    private static CacheResponse Run(SimulatedCube cube, Task<CacheResponse> response)
    {
        Assert.True(cube.RunUntil(() => response.IsCompleted, TimeSpan.FromSeconds(10)), "no answer in 10 virtual seconds");
        return response.GetAwaiter().GetResult();
    }

    /// <summary>A key whose home is neither the requester nor one of its neighbours, and the home.</summary>
    private static (byte[] Key, Coordinate Home) KeyRootedAway(SimulatedCube cube)
    {
        for (var i = 0; ; i++)
        {
            var key = Encoding.ASCII.GetBytes($"failure:{i}");
            var home = cube[s_requester].KeySpace.KeyCoordinateOf(CacheKeys.MemId(key)).Home;
            if (s_shape.AxisDistance(home, s_requester, Axis.X) + s_shape.AxisDistance(home, s_requester, Axis.Y) + s_shape.AxisDistance(home, s_requester, Axis.Z) >= 2)
            {
                return (key, home);
            }
        }
    }
}
