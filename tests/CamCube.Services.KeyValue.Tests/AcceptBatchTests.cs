using CamCube.Testing;

namespace CamCube.Services.KeyValue.Tests;

public sealed class AcceptBatchTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);

    [Fact]
    public async Task FirstWriteOfATurnToAReplicaGoesAloneAndTheTurnsOthersTravelAndCommitTogether()
    {
        // Keys that share one replica set: their writes meet at the same primary and the same two replicas.
        var space = KeySpace.For(s_shape);
        var first = space.GetServersForKey(Key.FromString("same-set-0"), 3);
        var keys = Enumerable.Range(0, 200_000).Select(i => Key.FromString($"same-set-{i}")).Where(k => space.GetServersForKey(k, 3).SequenceEqual(first)).Take(20).ToArray();
        Assert.Equal(20, keys.Length);
        var (cube, disks) = StartCube();
        var client = cube[first[0]].GetService<KeyValueService>()!;
        await TakeOverAll(cube, client, keys);
        var replicaCommits = disks[first[1]].Commits;
        var acceptsBefore = client.Statistics.AcceptsSent;
        var messagesBefore = client.Statistics.AcceptMessagesSent;

        var puts = keys.Select(key => client.PutAsync(key, new byte[10])).ToArray();
        Assert.True(cube.RunUntil(() => puts.All(p => p.IsCompleted), TimeSpan.FromSeconds(10)));

        Assert.All(puts, put => Assert.Equal(WriteStatus.Written, put.Result.Status));
        Assert.Equal(2 * keys.Length, client.Statistics.AcceptsSent - acceptsBefore);
        // Per replica: the turn's first accept alone and the other 19 in one batch, committed together.
        Assert.Equal(2 * 2, client.Statistics.AcceptMessagesSent - messagesBefore);
        Assert.Equal(2, disks[first[1]].Commits - replicaCommits);
    }

    [Fact]
    public async Task PrimaryCommitsItsOwnCopyAfterItsAcceptsLeftWhenItCommitsOnTheLoop()
    {
        var key = Key.FromString("accepts-first");
        var servers = KeySpace.For(s_shape).GetServersForKey(key, 3);
        var (cube, disks) = StartCube();
        var primary = cube[servers[0]].GetService<KeyValueService>()!;
        await TakeOverAll(cube, primary, [key]);
        var sent = primary.Statistics.AcceptMessagesSent;
        var sentWhenCommitted = -1L;
        disks[servers[0]].OnCommit = () => sentWhenCommitted = primary.Statistics.AcceptMessagesSent;

        var put = primary.PutAsync(key, new byte[3]);
        Assert.True(cube.RunUntil(() => put.IsCompleted, TimeSpan.FromSeconds(10)));

        Assert.Equal(WriteStatus.Written, (await put).Status);
        Assert.Equal(sent + 2, sentWhenCommitted);
    }

    /// <summary>A cube whose servers keep their writes in counting memory storages (commits on the loop).</summary>
    internal static (InMemoryCube Cube, Dictionary<Coordinate, CountingStorage> Disks) StartCube()
    {
        var disks = new Dictionary<Coordinate, CountingStorage>();
        var cube = InMemoryCube.Start(s_shape, node =>
        {
            var disk = new CountingStorage();
            disks.Add(node.Self, disk);
            node.Register(new KeyValueService(disk));
        });
        return (cube, disks);
    }

    /// <summary>Writes each key once, one after another (its first write, sent with its take-over), so the next writes need no take-over.</summary>
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
