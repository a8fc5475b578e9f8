using CamCube.Testing;

namespace CamCube.Transport.Simulation.Tests;

/// <summary>The one test-cube shape (<see cref="ITestCube"/>): the same calls mean the same on the in-memory cube and the simulated one.</summary>
public sealed class TestCubeTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);

    public static TheoryData<TestTransport> Transports => [TestTransport.InMemory, TestTransport.Simulator];

    [Theory]
    [MemberData(nameof(Transports))]
    public void RunUntilMeasuresItsTimeoutFromNowWhenTheConditionNeverHoldsOnEitherTransport(TestTransport transport)
    {
        var cube = TestCube.Start(transport, s_shape);
        cube.RunFor(TimeSpan.FromMilliseconds(5));
        var before = cube.Elapsed;

        Assert.False(cube.RunUntil(() => false, TimeSpan.FromMilliseconds(10)));

        Assert.Equal(before + TimeSpan.FromMilliseconds(10), cube.Elapsed);
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public void KillReturnsFalseWhenTheServerIsDeadAlreadyOnEitherTransport(TestTransport transport)
    {
        var cube = TestCube.Start(transport, s_shape);
        var victim = new Coordinate(1, 1, 1);

        Assert.True(cube.Kill(victim));
        Assert.False(cube.Kill(victim));

        Assert.False(cube.IsAlive(victim));
        Assert.Equal(26, cube.LiveNodes.Count());
        Assert.DoesNotContain(cube.LiveNodes, n => n.Self == victim);
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public void TrueRootIsTheNextServerOfTheWalkWhenTheRootIsKilledOnEitherTransport(TestTransport transport)
    {
        var cube = TestCube.Start(transport, s_shape);
        var key = KeyCoordinate.At(new Coordinate(1, 1, 1), 7);
        var servers = KeySpace.For(s_shape).GetServersForKey(key, r: 2);
        Assert.Equal(servers[0], cube.TrueRoot(key));

        cube.Kill(servers[0]);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(1)));

        Assert.Equal(servers[1], cube.TrueRoot(key));
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public void RestartBringsBackAFreshNodeWhenTheServerWasKilledOnEitherTransport(TestTransport transport)
    {
        var cube = TestCube.Start(transport, s_shape);
        var server = new Coordinate(2, 0, 1);
        var before = cube[server];
        cube.Kill(server);

        var after = cube.Restart(server);

        Assert.NotSame(before, after);
        Assert.Same(after, cube[server]);
        Assert.True(cube.RunUntil(cube.AllLinksUp, TimeSpan.FromSeconds(1)));
        Assert.Throws<InvalidOperationException>(() => cube.Restart(server));
    }
}
