using CamCube.Runtime.Tests.Shared;
using CamCube.Testing;

namespace CamCube.Transport.Simulation.Tests;

/// <summary>The runtime API of issue 15 (posting onto the loop, ...), the same cases in memory and in the simulator.</summary>
public sealed class RuntimeApiOnBothTransportsTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_asker = new(0, 0, 0);

    public static TheoryData<TestTransport> Transports => [TestTransport.InMemory, TestTransport.Simulator];

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task AsyncFunctionAwaitsItsReplyOnTheLoopWhenInvokedFromOutsideOnEitherTransport(TestTransport transport)
    {
        var cube = TestCube.Start(transport, s_shape, n => n.Register(new ApiProbeService()));
        var probe = cube[s_asker].GetService<ApiProbeService>()!;

        var echo = probe.EchoAsync(ProbeKeys.WithRootAt(s_shape, new Coordinate(2, 1, 1)));

        Assert.True(cube.RunUntil(() => echo.IsCompleted, TimeSpan.FromSeconds(1)));
        Assert.Equal(3, await echo);
        Assert.Equal("LoopSynchronizationContext", probe.ResumedOn);
        Assert.Equal(s_asker, await RunToCompletion(cube, probe.WhereAsync()));
    }

    private static async Task<T> RunToCompletion<T>(ITestCube cube, Task<T> task)
    {
        Assert.True(cube.RunUntil(() => task.IsCompleted, TimeSpan.FromSeconds(1)));
        return await task;
    }
}
