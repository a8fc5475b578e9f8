using CamCube.Services.KeyValue.Replication;
using CamCube.Services.KeyValue.Storage;
using CamCube.Testing;

using static CamCube.Services.KeyValue.Tests.TestWrites;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>Commits on threads shared by many servers' stores (<see cref="KeyValueCommitPool"/>).</summary>
public sealed class PooledCommitterTests
{
    [Fact]
    public async Task OneThreadCommitsForTwoServersOneAfterTheOther()
    {
        var events = new List<string>();
        using var first = new BlockingStorage { Timeline = (events, "a") };
        using var second = new BlockingStorage { Timeline = (events, "b") };
        using var pool = new KeyValueCommitPool(threads: 1);
        var statistics = new KeyValueStatistics();
        using var a = new PooledCommitter(first, pool, writesMax: 100, "a", statistics);
        using var b = new PooledCommitter(second, pool, writesMax: 100, "b", statistics);
        var atA = a.Add(Write(0));
        first.WaitForCommit();
        var atB = b.Add(Write(1));

        // The one thread is held by a's commit: b's starts only once a's ended.
        first.Release();
        second.Release();
        Assert.True(await atA);
        Assert.True(await atB);
        Assert.Equal(["enter a", "exit a", "enter b", "exit b"], events);
        Assert.Equal(2, statistics.CommitsOnThread);
    }

    [Fact]
    public async Task TwoThreadsCommitForTwoServersAtOnce()
    {
        using var first = new BlockingStorage();
        using var second = new BlockingStorage();
        using var pool = new KeyValueCommitPool(threads: 2);
        using var a = new PooledCommitter(first, pool, writesMax: 100, "a", new KeyValueStatistics());
        using var b = new PooledCommitter(second, pool, writesMax: 100, "b", new KeyValueStatistics());
        var atA = a.Add(Write(0));
        var atB = b.Add(Write(1));

        // Both commits have started before either is let go.
        first.WaitForCommit();
        second.WaitForCommit();
        first.Release();
        second.Release();
        Assert.True(await atA);
        Assert.True(await atB);
    }

    [Fact]
    public async Task HeldWritesShareOneCommitOnceReleased()
    {
        using var storage = new BlockingStorage();
        using var pool = new KeyValueCommitPool(threads: 1);
        using var committer = new PooledCommitter(storage, pool, writesMax: 100, "test", new KeyValueStatistics());
        committer.Hold();
        var writes = Enumerable.Range(0, 5).Select(i => committer.Add(Write(i))).ToArray();
        committer.Release();
        storage.WaitForCommit();
        storage.Release();

        Assert.All(await Task.WhenAll(writes), Assert.True);
        Assert.Equal([5], storage.CommitSizes);
    }

    [Fact]
    public async Task WritesAddedAfterThePoolStoppedAreCommittedByTheirCaller()
    {
        using var storage = new MemoryKeyValueStorage();
        var pool = new KeyValueCommitPool(threads: 1);
        using var committer = new PooledCommitter(storage, pool, writesMax: 100, "test", new KeyValueStatistics());
        pool.Dispose();

        var kept = committer.Add(Write(0));

        Assert.True(kept.IsCompleted);
        Assert.True(await kept);
        Assert.NotNull(storage.Read(Key.FromString("k0")));
    }

    [Fact]
    public void PoolOfNoThreadsIsRefused() =>
        Assert.Throws<ArgumentOutOfRangeException>(() => new KeyValueCommitPool(threads: 0));

    [Fact]
    public void CommitPoolWithCommitsOnTheLoopIsRefusedWithBothNames()
    {
        using var pool = new KeyValueCommitPool(threads: 1);
        var options = new KeyValueServiceOptions { Commits = CommitMode.OnLoop, CommitPool = pool };

        var refused = Assert.Throws<ArgumentException>(options.Validate);
        Assert.Contains("OnLoop", refused.Message, StringComparison.Ordinal);
        Assert.Contains("CommitPool", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ConcurrentPutsOfACubeSharingTwoCommitThreadsAreOnEveryReplicasDisk()
    {
        var shape = new TorusShape(3, 3, 3);
        var directory = Directory.CreateTempSubdirectory("camcube-kv-pool-").FullName;
        var disks = new Dictionary<Coordinate, SqliteKeyValueStorage>();
        var keys = Enumerable.Range(0, 60).Select(i => Key.FromString($"pooled-{i}")).ToArray();
        try
        {
            using var pool = new KeyValueCommitPool(threads: 2);
            using var cube = await RealTimeCube.StartAsync(shape, node =>
            {
                var disk = SqliteKeyValueStorage.Open(Path.Combine(directory, $"{node.Self.X}-{node.Self.Y}-{node.Self.Z}.db"));
                disks.Add(node.Self, disk);
                node.Register(new KeyValueService(disk, new KeyValueServiceOptions { Commits = CommitMode.OnCommitThread, CommitPool = pool }));
            }, TimeSpan.FromSeconds(60));
            var stores = Enumerable.Range(0, (int)shape.ServerCount).Select(i => cube[shape.CoordinateAt(i)].GetService<KeyValueService>()!).ToArray();

            // Each replica's database is read as soon as its put is acknowledged, with the cube and the
            // pool running: disposing either would commit whatever still waits in the commit queues.
            await Task.WhenAll(keys.Select((key, i) => CommittedVersions.PutCommittedAtEveryReplicaAsync(stores[i % stores.Length], key, BitConverter.GetBytes(i), shape, disks)));
            Assert.True(stores.Sum(store => store.Statistics.CommitsOnThread) > 0);
            Assert.Equal(0, stores.Sum(store => store.Statistics.CommitsOnLoop));
        }
        finally
        {
            foreach (var disk in disks.Values)
            {
                disk.Dispose();
            }

            Directory.Delete(directory, recursive: true);
        }
    }
}
