using CamCube.Runtime.Tests.Shared;

namespace CamCube.Transport.Udp.Tests;

/// <summary>The runtime API of issue 15 on real nodes over UDP, each node on its own loop thread.</summary>
public sealed class RuntimeApiOnUdpTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(10);
    private static readonly TorusShape s_shape = new(3, 1, 1);

    [Fact]
    public async Task AsyncFunctionAwaitsItsReplyOnTheLoopWhenInvokedFromATestThreadOverUdp()
    {
        using var cube = UdpNodeCube.Start(s_shape, n => n.Register(new ApiProbeService()));
        var asker = new Coordinate(0, 0, 0);
        var probe = cube.On(asker, n => n.GetService<ApiProbeService>()!);

        var hops = await probe.EchoAsync(ProbeKeys.WithRootAt(s_shape, new Coordinate(2, 0, 0))).WaitAsync(s_timeout);

        Assert.Equal(1, hops);
        Assert.Equal("LoopSynchronizationContext", cube.On(asker, _ => probe.ResumedOn));
        Assert.Equal(asker, await probe.WhereAsync().WaitAsync(s_timeout));
    }
}
