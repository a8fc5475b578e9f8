using CamCube.Services.KeyValue.Storage;
using CamCube.Testing;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>The store on SQLite with its commits on a thread of their own, on a cube in real time (one loop for every node).</summary>
public sealed class CommitThreadTests : IDisposable
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private readonly string _directory = Directory.CreateTempSubdirectory("camcube-kv-thread-").FullName;
    private readonly Dictionary<Coordinate, SqliteKeyValueStorage> _disks = [];

    [Fact]
    public async Task ConcurrentPutsAreOnEveryReplicasDiskAndReadBackWhenAcknowledged()
    {
        var keys = Enumerable.Range(0, 60).Select(i => Key.FromString($"threaded-{i}")).ToArray();
        using var cube = await RealTimeCube.StartAsync(s_shape, Register, TimeSpan.FromSeconds(60));
        var stores = Enumerable.Range(0, (int)s_shape.ServerCount).Select(i => cube[s_shape.CoordinateAt(i)].GetService<KeyValueService>()!).ToArray();

        // Each replica's database is read as soon as its put is acknowledged, with the cube running:
        // disposing the cube would commit whatever still waits in the commit queues.
        var written = await Task.WhenAll(keys.Select((key, i) => CommittedVersions.PutCommittedAtEveryReplicaAsync(stores[i % stores.Length], key, BitConverter.GetBytes(i), s_shape, _disks)));
        var read = await Task.WhenAll(keys.Select((key, i) => stores[(i + 5) % stores.Length].GetAsync(key)));

        for (var i = 0; i < keys.Length; i++)
        {
            Assert.Equal(written[i].Version, read[i]!.Version);
            Assert.Equal(BitConverter.GetBytes(i), read[i]!.Value.ToArray());
        }
    }

    [Fact]
    public async Task LonePutCommitsOnTheLoopOfEachOfItsServersWhenTheirThreadsAreIdle()
    {
        var key = Key.FromString("lone");
        var servers = KeySpace.For(s_shape).GetServersForKey(key, 3);
        using var cube = await RealTimeCube.StartAsync(s_shape, node => Register(node, CommitMode.Automatic), TimeSpan.FromSeconds(60));
        var stores = servers.Select(server => cube[server].GetService<KeyValueService>()!).ToArray();

        // The first put takes the key over (promises); the second is a lone write at each of the three servers.
        await stores[0].PutAsync(key, new byte[] { 1 });
        var onLoop = stores.Sum(store => store.Statistics.CommitsOnLoop);
        var onThread = stores.Sum(store => store.Statistics.CommitsOnThread);
        var written = await stores[0].PutAsync(key, new byte[] { 2 });

        Assert.Equal(WriteStatus.Written, written.Status);
        Assert.Equal(onLoop + 3, stores.Sum(store => store.Statistics.CommitsOnLoop));
        Assert.Equal(onThread, stores.Sum(store => store.Statistics.CommitsOnThread));
        Assert.All(servers, server => Assert.Equal(written.Version, _disks[server].Read(key)!.Version));
    }

    public void Dispose()
    {
        foreach (var disk in _disks.Values)
        {
            disk.Dispose();
        }

        Directory.Delete(_directory, recursive: true);
    }

    private void Register(Runtime.Node node) => Register(node, CommitMode.OnCommitThread);

    private void Register(Runtime.Node node, CommitMode commits)
    {
        var disk = SqliteKeyValueStorage.Open(Path.Combine(_directory, $"{node.Self.X}-{node.Self.Y}-{node.Self.Z}.db"));
        _disks.Add(node.Self, disk);
        node.Register(new KeyValueService(disk, new KeyValueServiceOptions { Commits = commits }));
    }
}
