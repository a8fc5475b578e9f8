using CamCube.Testing;

namespace CamCube.Services.KeyValue.Tests;

public sealed class CommitBatchTests
{
    [Fact]
    public async Task WritesArrivingTogetherShareOneCommitOnEachServer()
    {
        var shape = new TorusShape(3, 3, 3);
        var disks = new Dictionary<Coordinate, CountingStorage>();
        var cube = InMemoryCube.Start(shape, node =>
        {
            var disk = new CountingStorage();
            disks.Add(node.Self, disk);
            node.Register(new KeyValueService(disk));
        });
        var client = cube[new Coordinate(0, 0, 0)].GetService<KeyValueService>()!;

        var puts = Enumerable.Range(0, 200).Select(i => client.PutAsync(Key.FromString($"batched-{i}"), new byte[10])).ToArray();
        Assert.True(cube.RunUntil(() => puts.All(p => p.IsCompleted), TimeSpan.FromSeconds(10)));
        foreach (var put in puts)
        {
            Assert.Equal(WriteStatus.Written, (await put).Status);
        }

        Assert.Equal(600, disks.Values.Sum(d => d.WritesCommitted));
        var commits = disks.Values.Sum(d => d.Commits);
        Assert.True(commits < 300, $"{commits} commits for 600 writes: the writes of one turn should share one");
    }
}
