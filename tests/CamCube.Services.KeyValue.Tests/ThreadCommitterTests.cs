using CamCube.Services.KeyValue.Replication;
using CamCube.Services.KeyValue.Storage;
using CamCube.Testing;

using static CamCube.Services.KeyValue.Tests.TestWrites;

namespace CamCube.Services.KeyValue.Tests;

public sealed class ThreadCommitterTests
{
    [Fact]
    public async Task FlushCompletesWhenEveryWriteAddedBeforeIsCommitted()
    {
        using var storage = new BlockingStorage();
        using var committer = new ThreadCommitter(storage, writesMax: 100, "test", new KeyValueStatistics());
        Assert.True(committer.FlushAsync().IsCompleted);
        var write = committer.Add(Write(0));
        var flush = committer.FlushAsync();
        storage.WaitForCommit();
        Assert.False(flush.IsCompleted);

        storage.Release();
        await flush;
        Assert.True(write.IsCompleted);
        Assert.NotNull(storage.Read(Key.FromString("k0")));
    }

    [Fact]
    public async Task ConcurrentWritesAreAllOnDiskWhenTheirTasksComplete()
    {
        var directory = Directory.CreateTempSubdirectory("camcube-kv-commit-").FullName;
        try
        {
            var path = Path.Combine(directory, "kv.db");
            using (var storage = SqliteKeyValueStorage.Open(path))
            using (var committer = new ThreadCommitter(storage, writesMax: 1000, "test", new KeyValueStatistics()))
            {
                var writes = Enumerable.Range(0, 200).Select(i => committer.Add(Write(i))).ToArray();
                Assert.All(await Task.WhenAll(writes), Assert.True);
            }

            using var reopened = SqliteKeyValueStorage.Open(path);
            Assert.Equal(200, reopened.Count);
            Assert.Equal([199], reopened.Read(Key.FromString("k199"))!.Value);
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    [Fact]
    public async Task ACommitOnTheLoopWaitsForWorkTheTurnPostedAfterTheWrite()
    {
        // A write's accepts leave the node in work the turn posts after the write was added (the links'
        // flushes): the commit on the loop must come after them, or the replicas wait for the primary's disk.
        var events = new List<string>();
        var captured = new ContextCapture();
        using var cube = await RealTimeCube.StartAsync(new TorusShape(1, 1, 1), node => node.Register(captured), TimeSpan.FromSeconds(30));
        using var storage = new BlockingStorage { Timeline = (events, "disk") };
        storage.Release();
        using var committer = await cube.InvokeAsync(() => new ThreadCommitter(storage, writesMax: 100, "test", new KeyValueStatistics(), captured.Context));

        var kept = await cube.InvokeAsync(() =>
        {
            var write = committer.Add(Write(0));
            Assert.True(captured.Context.TryPost(_ => events.Add("sent"), null));
            return write;
        });

        Assert.True(await kept);
        Assert.Equal(["sent", "enter disk", "exit disk"], events);
    }

    private sealed class ContextCapture() : ServiceBase(0x7E01, "context capture")
    {
        public INodeContext Context => Node;
    }
}
