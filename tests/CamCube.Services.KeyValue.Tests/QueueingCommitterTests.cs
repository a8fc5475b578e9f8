using CamCube.Services.KeyValue.Replication;
using CamCube.Services.KeyValue.Storage;

using static CamCube.Services.KeyValue.Tests.TestWrites;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>What the committers off the loop share: a bounded queue, and a stop that commits what waits. Each test runs on a thread of the server's own and on a pool's.</summary>
public sealed class QueueingCommitterTests
{
    public static TheoryData<string> Kinds => ["thread", "pool"];

    [Theory]
    [MemberData(nameof(Kinds))]
    public async Task WritesAddedWhileTheServersCommitRunsShareItsNextCommit(string kind)
    {
        using var storage = new BlockingStorage();
        using var committer = new TestCommitter(kind, storage, writesMax: 100);
        var first = committer.Queue.Add(Write(0));
        storage.WaitForCommit();
        var later = Enumerable.Range(1, 10).Select(i => committer.Queue.Add(Write(i))).ToArray();
        Assert.False(first.IsCompleted);

        // The pool's second thread is free, yet the server's next commit waits for its first: they stay in order.
        storage.Release(2);
        Assert.True(await first);
        Assert.All(await Task.WhenAll(later), Assert.True);
        Assert.Equal([1, 10], storage.CommitSizes);
        Assert.Equal(11, storage.Count);
    }

    [Theory]
    [MemberData(nameof(Kinds))]
    public async Task WriteIsRefusedWithTheLimitsNameWhenTheQueueIsFull(string kind)
    {
        using var storage = new BlockingStorage();
        using var committer = new TestCommitter(kind, storage, writesMax: 3);
        var underWay = committer.Queue.Add(Write(0));
        storage.WaitForCommit();
        var waiting = Enumerable.Range(1, 3).Select(i => committer.Queue.Add(Write(i))).ToArray();
        Assert.False(committer.Queue.HasRoom);

        var refused = await Assert.ThrowsAsync<InvalidOperationException>(() => committer.Queue.Add(Write(4)));
        Assert.Contains("CommitQueueWritesMax", refused.Message, StringComparison.Ordinal);
        storage.Release(2);
        await Task.WhenAll([underWay, .. waiting]);
        Assert.True(committer.Queue.HasRoom);
        Assert.Null(storage.Read(Key.FromString("k4")));
    }

    [Theory]
    [MemberData(nameof(Kinds))]
    public async Task DisposeCommitsWhatWaitsAndLaterWritesFail(string kind)
    {
        using var storage = new BlockingStorage();
        using var committer = new TestCommitter(kind, storage, writesMax: 100);
        var underWay = committer.Queue.Add(Write(0));
        storage.WaitForCommit();
        var waiting = committer.Queue.Add(Write(1));
        storage.Release(2);
        committer.Queue.Dispose();

        Assert.True(await underWay);
        Assert.True(await waiting);
        Assert.Equal(2, storage.Count);
        await Assert.ThrowsAsync<ObjectDisposedException>(() => committer.Queue.Add(Write(2)));
    }

    /// <summary>
    /// A flush waits for the writes added before it, whether their commit kept them or failed: it
    /// does not fail itself (before, it handed back the last write's own task, so after a failed
    /// commit every flush failed until the next write, and with it every catch-up offer to the server,
    /// which flushes before it answers).
    /// </summary>
    [Theory]
    [MemberData(nameof(Kinds))]
    public async Task FlushAfterAWriteWhoseCommitFailedCompletesWithoutFailing(string kind)
    {
        using var storage = new FailingStorage { FailNextCommit = true };
        using var committer = new TestCommitter(kind, storage, writesMax: 100);
        await Assert.ThrowsAnyAsync<Exception>(() => committer.Queue.Add(Write(0)));

        await committer.Queue.FlushAsync();
    }

    /// <summary>A committer of the kind named, with the pool it needs (two threads, so one is free while the other commits).</summary>
    private sealed class TestCommitter : IDisposable
    {
        private readonly KeyValueCommitPool? _pool;

        public TestCommitter(string kind, IKeyValueStorage storage, int writesMax)
        {
            _pool = kind == "pool" ? new KeyValueCommitPool(threads: 2) : null;
            Queue = _pool is null
                ? new ThreadCommitter(storage, writesMax, "test", new KeyValueStatistics())
                : new PooledCommitter(storage, _pool, writesMax, "test", new KeyValueStatistics());
        }

        public Committer Queue { get; }

        public void Dispose()
        {
            Queue.Dispose();
            _pool?.Dispose();
        }
    }
}
