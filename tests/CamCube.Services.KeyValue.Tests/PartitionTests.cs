using CamCube.Testing;
using static CamCube.Services.KeyValue.Tests.KeyValueServiceTests;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>
/// docs/key-value-store.md, "Under a partition": the cube is cut into the plane x = 0 (9 servers,
/// a minority) and the rest (18). Only the majority side serves; the minority answers Unavailable;
/// nothing the majority acknowledged is lost when the cut heals. Without the majority rule both
/// sides acknowledge writes and one side's are lost: the reason for the rule.
/// </summary>
public sealed class PartitionTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_minorityClient = new(0, 1, 1);
    private static readonly Coordinate s_majorityClient = new(2, 2, 2);
    /// <summary>A read lease well inside the call's time, so a key's fail-over (which waits for the lease) completes within one call.</summary>
    private static readonly KeyValueServiceOptions s_options = new() { RequestTimeout = TimeSpan.FromSeconds(1), ReadLease = TimeSpan.FromMilliseconds(300) };

    /// <summary>A key whose primary is on the minority side and one of whose other servers is on the majority side.</summary>
    private static readonly Key s_key = Enumerable.Range(0, 10_000)
        .Select(i => Key.FromString($"split-{i}"))
        .First(key => KeySpace.For(s_shape).GetServersForKey(key, 3) is var servers && servers[0].X == 0 && servers.Any(server => server.X != 0));

    [Fact]
    public async Task OnlyTheMajoritySideServesAndItsWritesSurviveWhenThePartitionHeals()
    {
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 11 }, s_options);
        var before = await store.Run(store[s_majorityClient].PutAsync(s_key, Bytes("before")));

        var cube = (SimulatedCube)store.Cube;
        Cut(cube, cut: true);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));

        var refused = await Assert.ThrowsAsync<KeyValueStoreException>(() => store.Run(store[s_minorityClient].GetAsync(s_key)));
        Assert.Equal(KeyValueFailure.Unavailable, refused.Reason);
        var refusedWrite = await Assert.ThrowsAsync<KeyValueStoreException>(() => store.Run(store[s_minorityClient].PutAsync(s_key, Bytes("minority"))));
        Assert.Equal(KeyValueFailure.Unavailable, refusedWrite.Reason);

        var during = await store.Run(store[s_majorityClient].PutAsync(s_key, Bytes("majority"), WriteCondition.IfVersion(before.Version)));
        Assert.Equal(WriteStatus.Written, during.Status);

        Cut(cube, cut: false);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        foreach (var client in new[] { s_minorityClient, s_majorityClient })
        {
            var got = await store.Run(store[client].GetAsync(s_key));
            Assert.Equal(during.Version, got!.Version);
            Assert.Equal("majority", Text(got.Value));
        }
    }

    [Fact]
    public async Task WithoutTheMajorityRuleBothSidesAcknowledgeAndOneSidesWriteIsLostWhenItHeals()
    {
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = 12 }, s_options with { RequireMajority = false });
        await store.Run(store[s_majorityClient].PutAsync(s_key, Bytes("before")));

        var cube = (SimulatedCube)store.Cube;
        Cut(cube, cut: true);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        var minority = await store.Run(store[s_minorityClient].PutAsync(s_key, Bytes("minority")));
        var majority = await store.Run(store[s_majorityClient].PutAsync(s_key, Bytes("majority")));
        Assert.Equal(WriteStatus.Written, minority.Status);
        Assert.Equal(WriteStatus.Written, majority.Status);

        Cut(cube, cut: false);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        // Split brain: two acknowledged writes, and every reader sees the same one of them afterwards; the other is lost.
        var seen = new HashSet<string>();
        foreach (var client in new[] { s_minorityClient, s_majorityClient })
        {
            seen.Add(Text((await store.Run(store[client].GetAsync(s_key)))!.Value));
        }

        Assert.Single(seen);
        Assert.Contains(seen.Single(), new[] { "minority", "majority" });
    }

    /// <summary>Cuts (or restores) every cable between the plane x = 0 and the rest.</summary>
    private static void Cut(SimulatedCube cube, bool cut)
    {
        for (var y = 0; y < s_shape.Y; y++)
        {
            for (var z = 0; z < s_shape.Z; z++)
            {
                foreach (var link in new[] { LinkDirection.PlusX, LinkDirection.MinusX })
                {
                    _ = cut ? cube.Network.CutLink(new Coordinate(0, y, z), link) : cube.Network.RestoreLink(new Coordinate(0, y, z), link);
                }
            }
        }
    }
}
