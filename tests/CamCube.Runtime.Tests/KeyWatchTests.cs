using CamCube.Runtime.Tests.Shared;
using CamCube.Testing;

namespace CamCube.Runtime.Tests;

/// <summary>The ownership-change upcall and the reachability view's version (in memory; the simulator and UDP suites run the same probe).</summary>
public class KeyWatchTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_watcher = new(0, 0, 0);
    private static readonly Coordinate s_victim = new(1, 1, 1);

    [Fact]
    public void OwnershipChangeNamesOnlyTheWatchedKeysWhoseRootFailedAndCameBack()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new ApiProbeService()));
        var node = cube[s_watcher];
        var probe = node.GetService<ApiProbeService>()!;
        var moved = ProbeKeys.WithRootAt(s_shape, s_victim);
        var stays = ProbeKeys.WithRootAt(s_shape, new Coordinate(2, 2, 2));
        probe.Watch(1, moved, stays);
        var version = node.Reachability.Version;

        cube.Kill(s_victim);
        Assert.True(cube.RunUntil(() => probe.OwnershipChanges.Count == 1, TimeSpan.FromSeconds(5)));
        var afterFailure = node.Reachability.Version;
        cube.Restart(s_victim);
        Assert.True(cube.RunUntil(() => probe.OwnershipChanges.Count == 2, TimeSpan.FromSeconds(5)));
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));

        var coordinate = node.KeySpace.KeyCoordinateOf(moved);
        Assert.Equal([[coordinate], [coordinate]], probe.OwnershipChanges.Select(c => c.Changed));
        Assert.NotEqual(version, afterFailure);
        Assert.NotEqual(afterFailure, node.Reachability.Version);
    }

    [Fact]
    public void ReplicaSetWatchNamesAKeyWhoseSecondServerFailedWhileItsRootWatchDoesNot()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new ApiProbeService()));
        var probe = cube[s_watcher].GetService<ApiProbeService>()!;
        var key = ProbeKeys.WithServers(s_shape, new Coordinate(1, 1, 0), s_victim);
        probe.Watch(1, key);
        probe.Watch(2, key);

        cube.Kill(s_victim);
        Assert.True(cube.RunUntil(() => probe.OwnershipChanges.Count > 0, TimeSpan.FromSeconds(5)));
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));

        var (replicaCount, changed) = Assert.Single(probe.OwnershipChanges);
        Assert.Equal(2, replicaCount);
        Assert.Equal([KeySpace.For(s_shape).KeyCoordinateOf(key)], changed);
    }

    [Fact]
    public void KeyWatchIsRefusedToAServiceThatCannotHearOfChanges()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new RecordingService(0x0100, [])));
        var service = cube[s_watcher].GetService<RecordingService>()!;

        var refused = Assert.Throws<InvalidOperationException>(() => service.Context.CreateKeyWatch(1));

        Assert.Equal("Service recording-256 watches key coordinates but does not implement IOwnershipObserver, so it could not hear of their changes.", refused.Message);
        Assert.Throws<ArgumentOutOfRangeException>(() => cube[s_watcher].GetService<RecordingService>()!.Context.CreateKeyWatch(0));
    }
}
