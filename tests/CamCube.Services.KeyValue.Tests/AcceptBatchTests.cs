using CamCube.Testing;

namespace CamCube.Services.KeyValue.Tests;

public sealed class AcceptBatchTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);

    [Fact]
    public async Task WritesOfOneTurnToOneReplicaTravelInOneMessageAndShareOneCommit()
    {
        // Keys that share one replica set: their writes meet at the same primary and the same two replicas.
        var space = KeySpace.For(s_shape);
        var first = space.GetServersForKey(Key.FromString("same-set-0"), 3);
        var keys = Enumerable.Range(0, 200_000).Select(i => Key.FromString($"same-set-{i}")).Where(k => space.GetServersForKey(k, 3).SequenceEqual(first)).Take(20).ToArray();
        Assert.Equal(20, keys.Length);
        var disks = new Dictionary<Coordinate, CountingStorage>();
        var cube = InMemoryCube.Start(s_shape, node =>
        {
            var disk = new CountingStorage();
            disks.Add(node.Self, disk);
            node.Register(new KeyValueService(disk));
        });
        var client = cube[first[0]].GetService<KeyValueService>()!;
        await TakeOverAll(cube, client, keys);
        var replicaCommits = disks[first[1]].Commits;

        var puts = keys.Select(key => client.PutAsync(key, new byte[10])).ToArray();
        Assert.True(cube.RunUntil(() => puts.All(p => p.IsCompleted), TimeSpan.FromSeconds(10)));

        Assert.All(puts, put => Assert.Equal(WriteStatus.Written, put.Result.Status));
        Assert.Equal(2 * 2 * keys.Length, client.Statistics.AcceptsSent);
        Assert.Equal(2 * keys.Length + 2, client.Statistics.AcceptMessagesSent);
        Assert.Equal(1, disks[first[1]].Commits - replicaCommits);
    }

    /// <summary>Writes each key once, one after another, so the next writes need no take-over.</summary>
    private static async Task TakeOverAll(InMemoryCube cube, KeyValueService client, Key[] keys)
    {
        foreach (var key in keys)
        {
            var put = client.PutAsync(key, new byte[1]);
            Assert.True(cube.RunUntil(() => put.IsCompleted, TimeSpan.FromSeconds(10)));
            Assert.Equal(WriteStatus.Written, (await put).Status);
        }
    }
}
