using CamCube.Testing;
using ReplicatedCounter;

namespace CamCube.Samples.Tests;

public sealed class ReplicatedCounterTests
{
    private const string Name = "visits";
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_asker = new(0, 0, 0);
    private static readonly Coordinate[] s_servers = KeySpace.For(s_shape).GetServersForKey(Key.FromString(Name), 1 + CounterService.CopiesMax);

    [Fact]
    public async Task IncrementsCountAtTheRootAndCopiesReachTheNextServersWhenRunInMemory()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new CounterService()));
        var counter = cube[s_asker].GetService<CounterService>()!;

        for (var i = 1; i <= 5; i++)
        {
            var reply = counter.IncrementAsync(Name, 10);
            Assert.True(cube.RunUntil(() => reply.IsCompleted, TimeSpan.FromSeconds(1)));
            Assert.Equal(10 * i, (await reply).Value);
        }

        cube.RunUntilIdle();
        Assert.All(s_servers, server => Assert.Equal(50, cube[server].GetService<CounterService>()!.ValueHere(Name)));
        Assert.Equal(s_servers.Length, cube.LiveNodes.Count(n => n.GetService<CounterService>()!.ValueHere(Name) is not null));
    }

    [Fact]
    public async Task CounterContinuesFromTheFirstCopyWhenTheRootIsKilledInTheSimulator()
    {
        Assert.DoesNotContain(s_asker, s_servers);
        var cube = SimulatedCube.Start(s_shape, n => n.Register(new CounterService()));
        var counter = cube[s_asker].GetService<CounterService>()!;
        for (var i = 1; i <= 3; i++)
        {
            Assert.Equal(i, await IncrementAsync(cube, counter));
        }

        cube.Kill(s_servers[0]);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));

        Assert.Equal(4, await IncrementAsync(cube, counter));
        Assert.Equal(4, cube[s_servers[1]].GetService<CounterService>()!.ValueHere(Name));
        var read = counter.ReadAsync(Name);
        Assert.True(cube.RunUntil(() => read.IsCompleted, TimeSpan.FromSeconds(1)));
        Assert.Equal(4, (await read).Value);
    }

    [Fact]
    public async Task RestartedRootGetsItsCounterBackFromTheCopiesWhenItReturns()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new CounterService()));
        var counter = cube[s_asker].GetService<CounterService>()!;
        var reply = counter.IncrementAsync(Name, 7);
        Assert.True(cube.RunUntil(() => reply.IsCompleted, TimeSpan.FromSeconds(1)));
        cube.Kill(s_servers[0]);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));

        cube.Restart(s_servers[0]);
        Assert.True(cube.RunUntil(() => cube.ViewsConverged() && cube[s_servers[0]].GetService<CounterService>()!.ValueHere(Name) == 7, TimeSpan.FromSeconds(5)));

        var read = counter.ReadAsync(Name);
        Assert.True(cube.RunUntil(() => read.IsCompleted, TimeSpan.FromSeconds(1)));
        Assert.Equal(7, (await read).Value);
    }

    private static async Task<long> IncrementAsync(SimulatedCube cube, CounterService counter)
    {
        var reply = counter.IncrementAsync(Name);
        Assert.True(cube.RunUntil(() => reply.IsCompleted, TimeSpan.FromSeconds(1)));
        return (await reply).Value;
    }
}
