using CamCube.Runtime.Tests.Shared;
using CamCube.Testing;
using Microsoft.Extensions.Logging;

namespace CamCube.Runtime.Tests;

/// <summary>The ways onto a node's loop from other threads: TryPost, Post and InvokeAsync (in memory; the simulator and UDP suites run the same probe).</summary>
public class NodeContextPostTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_asker = new(0, 0, 0);

    [Fact]
    public async Task InvokeAsyncRunsInALaterTurnOfTheLoopWhenCalledOffIt()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new ApiProbeService()));
        var probe = cube[s_asker].GetService<ApiProbeService>()!;

        var where = probe.WhereAsync();

        Assert.False(where.IsCompleted);
        cube.RunUntilIdle();
        Assert.Equal(s_asker, await where);
    }

    [Fact]
    public async Task AsyncFunctionAwaitsItsReplyOnTheLoopAndTheCallerGetsOneTaskWhenInvoked()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new ApiProbeService()));
        var probe = cube[s_asker].GetService<ApiProbeService>()!;
        var key = ProbeKeys.WithRootAt(s_shape, new Coordinate(1, 1, 0));

        var echo = probe.EchoAsync(key);

        Assert.True(cube.RunUntil(() => echo.IsCompleted, TimeSpan.FromSeconds(1)));
        Assert.Equal(2, await echo);
        Assert.Equal("LoopSynchronizationContext", probe.ResumedOn);
    }

    [Fact]
    public async Task InvokeAsyncFaultsWithObjectDisposedWhenTheServiceLeavesBeforeItRuns()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new ApiProbeService()));
        var node = cube[s_asker];
        var probe = node.GetService<ApiProbeService>()!;

        var where = probe.WhereAsync();
        node.Deregister(ApiProbeService.Id);
        cube.RunUntilIdle();

        await Assert.ThrowsAsync<ObjectDisposedException>(() => where);
        var late = await Assert.ThrowsAsync<InvalidOperationException>(probe.WhereAsync);
        Assert.Equal("Service api-probe is not registered on a node.", late.Message);
    }

    [Fact]
    public void TryPostIsRefusedWhenTheServiceHasItsLimitOfPostedWorkWaiting()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new ApiProbeService()), new InMemoryCubeOptions { NodeOptions = () => new NodeOptions { PublishMetrics = false, PostedItemsMax = 2 } });
        var probe = cube[s_asker].GetService<ApiProbeService>()!;
        var context = probe.Context;
        Action<object?> count = static state => ((ApiProbeService)state!).PostedRuns++;

        Assert.Equal([true, true, false], [context.TryPost(count, probe), context.TryPost(count, probe), context.TryPost(count, probe)]);
        var refused = Assert.Throws<InvalidOperationException>(() => context.Post(() => probe.PostedRuns++));
        Assert.Equal("Service api-probe on node (0,0,0) already has 2 posted items waiting.", refused.Message);

        cube.RunUntilIdle();
        Assert.Equal(2, probe.PostedRuns);
        Assert.True(context.TryPost(count, probe));
    }

    [Fact]
    public void PostedWorkThatThrowsIsLoggedAndTheWorkAfterItStillRuns()
    {
        var logs = new ListLoggerFactory();
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new ApiProbeService()), new InMemoryCubeOptions { LoggerFactory = logs });
        var probe = cube[s_asker].GetService<ApiProbeService>()!;

        probe.Context.Post(() => throw new InvalidOperationException("broken on purpose"));
        probe.Context.Post(() => probe.PostedRuns++);
        cube.RunUntilIdle();

        Assert.Equal(1, probe.PostedRuns);
        Assert.Contains(logs.Lines, l => l.Level == LogLevel.Error && l.Message.Contains("api-probe threw in posted work on node (0,0,0)", StringComparison.Ordinal));
    }

    [Fact]
    public void TryPostOfAStaticCallbackAllocatesNothingInSteadyState()
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(new ApiProbeService()));
        var probe = cube[s_asker].GetService<ApiProbeService>()!;
        var context = probe.Context;
        Action<object?> count = static state => ((ApiProbeService)state!).PostedRuns++;
        void Burst()
        {
            for (var i = 0; i < 1_000; i++)
            {
                context.TryPost(count, probe);
            }

            cube.RunUntilIdle();
        }

        Burst();

        Assert.Equal(0, AllocationProbe.OnCurrentThread(Burst));
        Assert.Equal(4_000, probe.PostedRuns);
    }

    [Fact]
    public async Task PostsFromManyThreadsEachRunOnceOnTheLoopWhenTheLoopIsAThread()
    {
        using var cube = await RealTimeCube.StartAsync(new TorusShape(2, 1, 1), n => n.Register(new ApiProbeService()), TimeSpan.FromSeconds(10));
        var probe = await cube.InvokeAsync(() => cube[new Coordinate(0, 0, 0)].GetService<ApiProbeService>()!);
        var context = await cube.InvokeAsync(() => probe.Context);

        // The counter is not synchronised: it counts right only if every increment runs on the loop.
        var posters = Enumerable.Range(0, 4).Select(_ => Task.Run(() =>
        {
            for (var i = 0; i < 2_000; i++)
            {
                context.Post(() => probe.PostedRuns++);
            }
        })).ToArray();
        await Task.WhenAll(posters);

        Assert.Equal(8_000, await context.InvokeAsync(() => probe.PostedRuns));
    }
}
