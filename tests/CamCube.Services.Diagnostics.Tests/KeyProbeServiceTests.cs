using CamCube.Testing;

namespace CamCube.Services.Diagnostics.Tests;

public class KeyProbeServiceTests
{
    [Fact]
    public async Task ProbeFindsTheRootTheKeyspaceGivesWhenTheRootIsUpAndAfterItFails()
    {
        var shape = new TorusShape(3, 3, 3);
        var cube = InMemoryCube.Start(shape, n => n.Register(new KeyProbeService()));
        var key = KeySpace.For(shape).KeyCoordinateOf(Key.FromString("user:42"));
        var owners = KeySpace.For(shape).GetServersForKey(key, 2);
        var asker = cube[new Coordinate(0, 0, 0) == owners[0] ? new Coordinate(1, 1, 1) : new Coordinate(0, 0, 0)].GetService<KeyProbeService>()!;

        var first = asker.FindRootAsync(key, TimeSpan.FromSeconds(1));
        Assert.True(cube.RunUntil(() => first.IsCompleted, TimeSpan.FromSeconds(2)), "The probe neither came back nor timed out.");
        Assert.Equal(owners[0], await first);

        cube.Kill(owners[0]);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        var second = asker.FindRootAsync(key, TimeSpan.FromSeconds(1));
        Assert.True(cube.RunUntil(() => second.IsCompleted, TimeSpan.FromSeconds(2)), "The probe neither came back nor timed out.");
        Assert.Equal(owners[1], await second);
    }

    [Fact]
    public async Task ProbeCompletesWithNoRootWhenItsTimeoutPassesWithoutAReply()
    {
        var shape = new TorusShape(3, 3, 3);
        var key = KeySpace.For(shape).KeyCoordinateOf(Key.FromString("user:42"));
        var root = KeySpace.For(shape).GetServersForKey(key, 1)[0];
        var cube = InMemoryCube.Start(shape, n => n.Register(n.Self == root ? new SilentService(KeyProbeService.ServiceId) : new KeyProbeService()));
        var asker = cube[root == new Coordinate(0, 0, 0) ? new Coordinate(1, 1, 1) : new Coordinate(0, 0, 0)].GetService<KeyProbeService>()!;
        var start = cube.Clock.Elapsed;

        var probe = asker.FindRootAsync(key, TimeSpan.FromMilliseconds(300));

        Assert.True(cube.RunUntil(() => probe.IsCompleted, TimeSpan.FromSeconds(2)), "The probe did not time out.");
        Assert.Null(await probe);
        Assert.Equal(TimeSpan.FromMilliseconds(300), cube.Clock.Elapsed - start);
    }
}
