using System.Text;
using CamCube.Testing;

namespace CamCube.Services.Cache.Tests;

public class CacheServiceTests
{
    private static readonly TorusShape s_shape = new(4, 4, 4);

    private static byte[] B(string s) => Encoding.ASCII.GetBytes(s);

    private static InMemoryCube StartCube(TorusShape? shape = null, int k = 8) =>
        InMemoryCube.Start(shape ?? s_shape, n => n.Register(new CacheService(new CacheOptions { SecondaryReplicaCount = k }))).PastStartLease();

    private static CacheService At(InMemoryCube cube, Coordinate c) => cube[c].GetService<CacheService>()!;

    private static CacheResponse Run(InMemoryCube cube, Task<CacheResponse> task)
    {
        Assert.True(cube.RunUntil(() => task.IsCompleted, TimeSpan.FromSeconds(10)), "the request did not complete in 10 virtual seconds");
        return task.Result;
    }

    private static CacheResponse Set(InMemoryCube cube, Coordinate from, string key, byte[] value, uint flags = 0) =>
        Run(cube, At(cube, from).ExecuteAsync(new CacheRequest { Operation = CacheOperation.Set, Key = B(key), Value = value, Flags = flags }));

    private static CacheResponse Get(InMemoryCube cube, Coordinate from, string key) =>
        Run(cube, At(cube, from).ExecuteAsync(new CacheRequest { Operation = CacheOperation.Get, Key = B(key) }));

    private static Coordinate RootOf(string key) =>
        KeySpace.For(s_shape).GetServersForKey(CacheKeys.MemId(B(key)), 1)[0];

    [Fact]
    public void SetOnOneNodeIsReadDeletedAndCasCheckedFromOthers()
    {
        var cube = StartCube();
        var a = new Coordinate(0, 0, 0);
        var b = new Coordinate(3, 2, 1);
        Assert.Equal(CacheStatus.Stored, Set(cube, a, "user::img::1", B("hello"), flags: 42).Status);

        var hit = Get(cube, b, "user::img::1");
        Assert.Equal(CacheStatus.Hit, hit.Status);
        Assert.Equal("hello", Encoding.ASCII.GetString(hit.Value));
        Assert.Equal(42u, hit.Flags);

        var stale = Run(cube, At(cube, b).ExecuteAsync(new CacheRequest { Operation = CacheOperation.Cas, Key = B("user::img::1"), Value = B("x"), CasUnique = hit.Cas + 1 }));
        Assert.Equal(CacheStatus.Exists, stale.Status);
        var swapped = Run(cube, At(cube, new Coordinate(1, 1, 1)).ExecuteAsync(new CacheRequest { Operation = CacheOperation.Cas, Key = B("user::img::1"), Value = B("world"), CasUnique = hit.Cas }));
        Assert.Equal(CacheStatus.Stored, swapped.Status);
        Assert.Equal("world", Encoding.ASCII.GetString(Get(cube, a, "user::img::1").Value));

        Assert.Equal(CacheStatus.Deleted, Run(cube, At(cube, b).ExecuteAsync(new CacheRequest { Operation = CacheOperation.Delete, Key = B("user::img::1") })).Status);
        Assert.Equal(CacheStatus.Miss, Get(cube, a, "user::img::1").Status);
        Assert.Equal(CacheStatus.NotFound, Run(cube, At(cube, a).ExecuteAsync(new CacheRequest { Operation = CacheOperation.Delete, Key = B("user::img::1") })).Status);
    }

    [Fact]
    public void ItemLivesOnlyAtTheRootOfItsMemId()
    {
        var cube = StartCube();
        Set(cube, new Coordinate(2, 2, 2), "only-at-root", B("v"));
        var holders = cube.LiveNodes.Where(n => n.GetService<CacheService>()!.Store.Count > 0).Select(n => n.Self).ToArray();
        Assert.Equal([RootOf("only-at-root")], holders);
    }

    [Fact]
    public void SecondariesFillUnderRepeatedReadsAndAreInvalidatedByAWrite()
    {
        var cube = StartCube();
        const string key = "hot";
        var root = RootOf(key);
        Set(cube, root, key, B("v1"));
        foreach (var node in cube.LiveNodes.ToArray())
        {
            var first = Get(cube, node.Self, key);
            Assert.True(first.Status == CacheStatus.Hit, $"first read from {node.Self}: {first.Status}");
            Assert.Equal("v1", Encoding.ASCII.GetString(first.Value));
        }

        var copies = CopyHolders(cube, key);
        Assert.NotEmpty(copies);
        Assert.DoesNotContain(root, copies);
        Assert.Equal(copies.Length, At(cube, root).Store.GetPrimary(B(key))!.CopyHolders!.Count);

        // The second round of reads is answered by the copies: secondary hits grow by at least one.
        var before = cube.LiveNodes.Sum(n => n.GetService<CacheService>()!.Statistics.SecondaryHits);
        foreach (var node in cube.LiveNodes.ToArray())
        {
            Assert.Equal("v1", Encoding.ASCII.GetString(Get(cube, node.Self, key).Value));
        }

        Assert.True(cube.LiveNodes.Sum(n => n.GetService<CacheService>()!.Statistics.SecondaryHits) > before);

        Set(cube, new Coordinate(1, 0, 0), key, B("v2"));
        cube.RunUntilIdle();
        Assert.Empty(CopyHolders(cube, key));
        foreach (var node in cube.LiveNodes.ToArray())
        {
            Assert.Equal("v2", Encoding.ASCII.GetString(Get(cube, node.Self, key).Value));
        }
    }

    [Fact]
    public void ReadFromTheSourceGoesViaTheClosestReplicaThatFChose()
    {
        var cube = StartCube();
        const string key = "route-me";
        var primary = KeySpace.For(s_shape).KeyCoordinateOf(CacheKeys.MemId(B(key)));
        var secondaries = new KeyCoordinate[8];
        HotSpotReplicas.GetSecondaries(primary, 8, s_shape, secondaries);
        var root = RootOf(key);
        Set(cube, root, key, B("v"));

        // Pick a source whose closest replica is strictly closer than the primary and unique.
        var source = cube.LiveNodes.Select(n => n.Self).First(c =>
        {
            var here = KeyCoordinate.At(c, primary.W);
            var best = secondaries.Min(s => s_shape.Distance(here, s));
            return best < s_shape.Distance(here, primary) && secondaries.Count(s => s_shape.Distance(here, s) == best) == 1;
        });
        var via = secondaries.OrderBy(s => s_shape.Distance(KeyCoordinate.At(source, primary.W), s)).First();
        Assert.Equal(CacheStatus.Hit, Get(cube, source, key).Status);

        // The miss at the secondary sent the answer back through it, so the server of that coordinate holds the copy.
        Assert.Equal([via.Home], CopyHolders(cube, key));
    }

    [Fact]
    public void AfterARootFailsItsKeysAreFlushedAndNewWritesLandOnTheNewRoot()
    {
        var cube = StartCube();
        const string key = "fragile";
        var root = RootOf(key);
        Set(cube, root, key, B("v1"));
        foreach (var node in cube.LiveNodes.ToArray())
        {
            Get(cube, node.Self, key);
        }

        Assert.NotEmpty(CopyHolders(cube, key));
        cube.Kill(root);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(10)));

        // camcubeos 5.1: every copy whose root failed is flushed; the key now misses everywhere.
        Assert.Empty(CopyHolders(cube, key));
        var someone = new Coordinate((root.X + 2) % 4, root.Y, root.Z);
        Assert.Equal(CacheStatus.Miss, Get(cube, someone, key).Status);

        Set(cube, someone, key, B("v2"));
        var newRoot = KeySpace.For(s_shape).GetServersForKey(CacheKeys.MemId(B(key)), 1, ReachabilityView.WithUnreachable(s_shape, [root]))[0];
        Assert.Equal(1, s_shape.Distance(newRoot, root));
        Assert.Equal("v2", Encoding.ASCII.GetString(At(cube, newRoot).Store.GetPrimary(B(key))!.Value));
        Assert.Equal("v2", Encoding.ASCII.GetString(Get(cube, new Coordinate(0, 3, 3) == root ? someone : new Coordinate(0, 3, 3), key).Value));
    }

    [Fact]
    public void WhenAFailedRootComesBackTheItemItsStandInHeldIsFlushedThereAndNowhereElse()
    {
        var cube = StartCube();
        const string key = "returning";
        var root = RootOf(key);
        cube.Kill(root);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(10)));
        var someone = new Coordinate((root.X + 2) % 4, root.Y, root.Z);
        Set(cube, someone, key, B("v1"));
        var standIn = KeySpace.For(s_shape).GetServersForKey(CacheKeys.MemId(B(key)), 1, ReachabilityView.WithUnreachable(s_shape, [root]))[0];
        Assert.NotNull(At(cube, standIn).Store.GetPrimary(B(key)));
        var flushedBefore = At(cube, standIn).Statistics.ItemsFlushedOnFailure;

        cube.Restart(root);
        Assert.True(cube.RunUntil(() => At(cube, standIn).Store.GetPrimary(B(key)) is null, TimeSpan.FromSeconds(10)));

        Assert.Equal(flushedBefore + 1, At(cube, standIn).Statistics.ItemsFlushedOnFailure);
        Assert.Equal(CacheStatus.Miss, Get(cube, someone, key).Status);
    }

    [Fact]
    public void OneMegabyteValueCrossesTheCubeInFragments()
    {
        var cube = StartCube();
        var value = new byte[1024 * 1024];
        new Random(7).NextBytes(value);
        Assert.Equal(CacheStatus.Stored, Set(cube, new Coordinate(0, 0, 0), "big", value).Status);
        foreach (var from in new[] { new Coordinate(3, 3, 3), new Coordinate(1, 2, 3), new Coordinate(3, 3, 3) })
        {
            var hit = Get(cube, from, "big");
            Assert.Equal(CacheStatus.Hit, hit.Status);
            Assert.True(value.AsSpan().SequenceEqual(hit.Value));
        }

        Assert.Equal(CacheStatus.TooLarge, Run(cube, At(cube, new Coordinate(0, 0, 0)).ExecuteAsync(new CacheRequest { Operation = CacheOperation.Set, Key = B("big"), Value = new byte[(1024 * 1024) + 1] })).Status);
    }

    [Fact]
    public void FlushAllEmptiesEveryServer()
    {
        var cube = StartCube(new TorusShape(3, 3, 3));
        for (var i = 0; i < 30; i++)
        {
            Set(cube, new Coordinate(i % 3, 0, 0), $"key{i}", B("v"));
        }

        Assert.Equal(CacheStatus.Ok, Run(cube, At(cube, new Coordinate(1, 1, 1)).FlushAllAsync()).Status);
        Assert.Equal(0, cube.LiveNodes.Sum(n => n.GetService<CacheService>()!.Store.Count));
    }

    [Fact]
    public void WriteAfterFlushAllIsAnsweredWithoutWaitingForTheLeasesOfFlushedCopies()
    {
        var cube = StartCube();
        const string key = "hot-then-flushed";
        Set(cube, RootOf(key), key, B("v1"));
        foreach (var node in cube.LiveNodes.ToArray())
        {
            Assert.Equal(CacheStatus.Hit, Get(cube, node.Self, key).Status);
        }

        Assert.NotEmpty(CopyHolders(cube, key));
        Assert.Equal(CacheStatus.Ok, Run(cube, At(cube, new Coordinate(1, 1, 1)).FlushAllAsync()).Status);
        Assert.Empty(CopyHolders(cube, key));

        var before = cube.Clock.GetUtcNow();
        Assert.Equal(CacheStatus.Stored, Set(cube, new Coordinate(2, 0, 1), key, B("v2")).Status);
        Assert.True(cube.Clock.GetUtcNow() - before < TimeSpan.FromMilliseconds(100), $"the set took {(cube.Clock.GetUtcNow() - before).TotalMilliseconds} ms of virtual time");
    }

    [Fact]
    public void WriteAfterAnItemWithLiveCopiesWasEvictedWaitsForTheirLeases()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new CacheService(new CacheOptions { MemoryLimitBytes = 4096, ItemSizeMaxBytes = 1024 })));
        const string key = "hot-then-evicted";
        var root = RootOf(key);
        Set(cube, root, key, B("v1"));
        foreach (var node in cube.LiveNodes.ToArray())
        {
            Assert.Equal(CacheStatus.Hit, Get(cube, node.Self, key).Status);
        }

        Assert.NotEmpty(CopyHolders(cube, key));

        // Other keys rooted at the same server push the hot item out of its store.
        // (Reading the hot item would make it the most recently used: it is looked at only afterwards.)
        var fillers = Enumerable.Range(0, 100_000).Select(i => $"filler{i}").Where(k => RootOf(k) == root).Take(8).ToArray();
        var before = cube.Clock.GetUtcNow();
        foreach (var filler in fillers)
        {
            Set(cube, root, filler, new byte[900]);
        }

        Assert.Null(At(cube, root).Store.GetPrimary(B(key)));

        // The writes at that root after the eviction (the later fillers' and this one) waited for the copies' leases.
        Assert.Equal(CacheStatus.Stored, Set(cube, root, key, B("v2")).Status);
        Assert.True(cube.Clock.GetUtcNow() - before >= TimeSpan.FromMilliseconds(1_500), $"the writes took only {(cube.Clock.GetUtcNow() - before).TotalMilliseconds} ms of virtual time while copies of the evicted item were alive");
        foreach (var node in cube.LiveNodes.ToArray())
        {
            Assert.Equal("v2", Encoding.ASCII.GetString(Get(cube, node.Self, key).Value));
        }
    }

    [Fact]
    public void IncrementTouchAndAppendRunAtTheRoot()
    {
        var cube = StartCube();
        var a = new Coordinate(0, 1, 2);
        Set(cube, a, "n", B("10"));
        var incr = Run(cube, At(cube, a).ExecuteAsync(new CacheRequest { Operation = CacheOperation.Increment, Key = B("n"), Delta = 5 }));
        Assert.Equal("15", Encoding.ASCII.GetString(incr.Value));
        Assert.Equal(CacheStatus.Touched, Run(cube, At(cube, a).ExecuteAsync(new CacheRequest { Operation = CacheOperation.Touch, Key = B("n"), ExpirationSeconds = 1 })).Status);
        Assert.Equal(CacheStatus.Stored, Run(cube, At(cube, a).ExecuteAsync(new CacheRequest { Operation = CacheOperation.Append, Key = B("n"), Value = B("0") })).Status);
        Assert.Equal("150", Encoding.ASCII.GetString(Get(cube, new Coordinate(3, 3, 3), "n").Value));
        cube.RunFor(TimeSpan.FromSeconds(2));
        Assert.Equal(CacheStatus.Miss, Get(cube, a, "n").Status);
    }

    private static Coordinate[] CopyHolders(InMemoryCube cube, string key) =>
        [.. cube.LiveNodes.Where(n => n.GetService<CacheService>()!.Store.Get(B(key)) is { IsCopy: true }).Select(n => n.Self).OrderBy(c => c.X).ThenBy(c => c.Y).ThenBy(c => c.Z)];
}
