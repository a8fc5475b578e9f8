using System.Text;
using CamCube.Testing;

namespace CamCube.Services.Cache.Tests;

/// <summary>
/// What a request costs on the wire when nothing is lost: a one-packet get is its request and its
/// answer, two packets, whether the root or a hot-spot copy on the way answers it (the answer is the
/// acknowledgement: no packet of its own acknowledges either).
/// </summary>
public sealed class CacheRequestPacketsTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_requester = new(0, 0, 0);

    [Fact]
    public void OnePacketGetIsTwoPacketsWhenTheRootAnswersAndNothingIsLost()
    {
        var cube = SimulatedCube.Start(s_shape, n => n.Register(new CacheService(new CacheOptions { SecondaryReplicaCount = 0 })), new SimulatedCubeOptions { Seed = 41 }).PastStartLease();
        var service = cube[s_requester].GetService<CacheService>()!;
        var key = KeyRootedAway(cube);
        Run(cube, service.ExecuteAsync(new CacheRequest { Operation = CacheOperation.Set, Key = key, Value = new byte[100] }));
        var before = PacketsDelivered(cube);

        var get = Run(cube, service.ExecuteAsync(new CacheRequest { Operation = CacheOperation.Get, Key = key }));

        Assert.Equal(CacheStatus.Hit, get.Status);
        Assert.Equal(100, get.Value.Length);
        Assert.Equal(2, PacketsDelivered(cube) - before);
        Assert.Equal(0, service.Statistics.Retransmissions);
    }

    [Fact]
    public void OnePacketGetIsTwoPacketsWhenAHotSpotCopyAnswersAndNothingIsLost()
    {
        var cube = SimulatedCube.Start(s_shape, n => n.Register(new CacheService()), new SimulatedCubeOptions { Seed = 42 }).PastStartLease();
        var service = cube[s_requester].GetService<CacheService>()!;
        var key = KeyRootedAway(cube);
        Run(cube, service.ExecuteAsync(new CacheRequest { Operation = CacheOperation.Set, Key = key, Value = new byte[100] }));

        // Two gets leave a copy on the way: the answer to the first may come inside the write's invalidation window, and keeps none.
        Run(cube, service.ExecuteAsync(new CacheRequest { Operation = CacheOperation.Get, Key = key }));
        Run(cube, service.ExecuteAsync(new CacheRequest { Operation = CacheOperation.Get, Key = key }));
        var secondaryHits = cube.LiveNodes.Sum(n => n.GetService<CacheService>()!.Statistics.SecondaryHits);
        var before = PacketsDelivered(cube);

        var get = Run(cube, service.ExecuteAsync(new CacheRequest { Operation = CacheOperation.Get, Key = key }));

        Assert.Equal(CacheStatus.Hit, get.Status);
        Assert.Equal(secondaryHits + 1, cube.LiveNodes.Sum(n => n.GetService<CacheService>()!.Statistics.SecondaryHits));
        Assert.Equal(2, PacketsDelivered(cube) - before);
        Assert.Equal(0, service.Statistics.Retransmissions);
    }

    /// <summary>A key whose root is neither the requester nor one of its neighbours.</summary>
    private static byte[] KeyRootedAway(SimulatedCube cube)
    {
        for (var i = 0; ; i++)
        {
            var key = Encoding.ASCII.GetBytes($"packets:{i}");
            var root = cube.TrueRoot(cube[s_requester].KeySpace.KeyCoordinateOf(CacheKeys.MemId(key)));
            if (s_shape.AxisDistance(root, s_requester, Axis.X) + s_shape.AxisDistance(root, s_requester, Axis.Y) + s_shape.AxisDistance(root, s_requester, Axis.Z) >= 2)
            {
                return key;
            }
        }
    }

    private static CacheResponse Run(SimulatedCube cube, Task<CacheResponse> response)
    {
        Assert.True(cube.RunUntil(() => response.IsCompleted, TimeSpan.FromSeconds(5)));
        cube.RunFor(TimeSpan.FromSeconds(1));
        return response.Result;
    }

    /// <summary>The cache's packets that reached a destination (each counted once, where it ended), in-cube traffic of every kind.</summary>
    private static long PacketsDelivered(SimulatedCube cube) => cube.LiveNodes.Sum(n => n.GetServiceCounters(CacheService.ServiceId)!.PacketsDelivered);
}
