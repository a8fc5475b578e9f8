using CamCube.Testing;
using static CamCube.Services.KeyValue.Tests.KeyValueServiceTests;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>
/// A commit the storage fails (SQLite's "database or disk is full", an I/O error): the write is
/// not acknowledged, and what the primary does next keeps every acknowledged write.
/// </summary>
public sealed class FailedCommitTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Key s_key = Key.FromString("disk full");
    private static readonly Coordinate[] s_servers = KeySpace.For(s_shape).GetServersForKey(s_key, 3);
    private static readonly Coordinate s_client = FailoverTests.ClientOutside(s_servers);

    /// <summary>
    /// The primary's own commit of a put fails while its replicas keep it. That put is not answered
    /// written; the next put, once the disk has room again, is, and it is what the key holds after
    /// the primary dies (before, the primary went on under its ballot from the value it held, gave
    /// the next put the failed put's version, the replicas kept the failed put's value under that
    /// version and answered yes, and the fail-over read the failed put: an acknowledged write lost).
    /// </summary>
    [Fact]
    public async Task WriteAfterOneWhoseCommitFailedAtThePrimaryIsWhatTheKeyHoldsAfterThePrimaryDies()
    {
        var disks = new Dictionary<Coordinate, FailingStorage>();
        var cube = InMemoryCube.Start(s_shape, node =>
        {
            var disk = new FailingStorage();
            disks.Add(node.Self, disk);
            node.Register(new KeyValueService(disk));
        });
        var store = new StoreCube(cube, []);
        store.PassStartLease(null);
        var client = store[s_client];
        Assert.Equal(WriteStatus.Written, (await store.Run(client.PutAsync(s_key, Bytes("first")))).Status);

        disks[s_servers[0]].FailNextCommit = true;
        var failed = client.PutAsync(s_key, Bytes("failed"));
        Assert.True(cube.RunUntil(() => failed.IsCompleted, TimeSpan.FromSeconds(30)));
        Assert.False(failed.IsCompletedSuccessfully && (await failed).Status == WriteStatus.Written, "The put whose commit failed at its primary was answered written.");
        Assert.False(disks[s_servers[0]].FailNextCommit, "The primary committed nothing.");

        var written = await store.Run(client.PutAsync(s_key, Bytes("written")));
        Assert.Equal(WriteStatus.Written, written.Status);

        Assert.True(cube.Kill(s_servers[0]));
        var read = await store.Run(client.GetAsync(s_key));
        Assert.Equal(("written", written.Version), (Text(read!.Value), read.Version));
    }
}
