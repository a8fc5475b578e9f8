namespace CamCube.Transport.Udp.Tests;

public sealed class UdpEventLoopSpinTests : IDisposable
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(10);
    private readonly TestCube _cube = TestCube.Start(new TorusShape(2, 1, 1));

    private TestNode A => _cube.Nodes[0];

    private UdpEventLoop Loop => A.UdpLoop!;

    public void Dispose() => _cube.Dispose();

    [Fact]
    public void ALoopThatSentNothingNeverSpinsAndBlocksOnItsSocket()
    {
        Loop.SpinAfterSend = UdpEventLoop.SpinAfterSendMax;

        // Work without a send (a post from another thread wakes the loop) earns no spin.
        for (var i = 0; i < 20; i++)
        {
            LoopAction.Run(A.Loop, () => { });
        }

        Assert.True(SpinWait.SpinUntil(() => Loop.IsBlockedInSocket, s_timeout));
        Assert.Equal(0, Loop.Spins);
    }

    [Fact]
    public void ALoopSpinsOnceAfterATurnThatSentThenBlocksOnItsSocket()
    {
        Loop.SpinAfterSend = TimeSpan.FromMicroseconds(200);

        Assert.Equal(1, A.SendBurst(LinkDirection.PlusX, [[1, 2, 3]]));

        Assert.True(SpinWait.SpinUntil(() => Loop.Spins == 1 && Loop.IsBlockedInSocket, s_timeout), $"{Loop.Spins} spins");
        Assert.True(_cube.Nodes[1].Sink.WaitFor(s => s.FrameCount == 1, s_timeout));
    }

    [Fact]
    public void ADatagramThatComesWhileTheLoopSpinsIsReadWithoutBlocking()
    {
        Loop.SpinAfterSend = UdpEventLoop.SpinAfterSendMax;
        var b = _cube.Nodes[1];

        // The reply has to come within the spin (1 ms); on a loaded host some do not, so try a few.
        for (var i = 1; i <= 200 && Loop.SpinsAnswered == 0; i++)
        {
            Assert.Equal(1, A.SendBurst(LinkDirection.PlusX, [[(byte)i]]));
            Assert.True(b.Sink.WaitFor(s => s.FrameCount == i, s_timeout));
            Assert.Equal(1, b.SendBurst(LinkDirection.PlusX, [[(byte)i]]));
            Assert.True(A.Sink.WaitFor(s => s.FrameCount == i, s_timeout));
        }

        Assert.True(Loop.SpinsAnswered > 0, $"none of {Loop.Spins} spins ended with a datagram or work");
        Assert.InRange(Loop.SpinsAnswered, 1, Loop.Spins);
    }

    [Fact]
    public void SpinAfterSendIsFromZeroToAMillisecond()
    {
        Assert.Equal(TimeSpan.Zero, Loop.SpinAfterSend);
        Assert.Throws<ArgumentOutOfRangeException>(() => Loop.SpinAfterSend = TimeSpan.FromTicks(-1));
        Assert.Throws<ArgumentOutOfRangeException>(() => Loop.SpinAfterSend = UdpEventLoop.SpinAfterSendMax + TimeSpan.FromTicks(1));
        Loop.SpinAfterSend = TimeSpan.FromMicroseconds(50);
        Assert.Equal(50, Loop.SpinAfterSend.TotalMicroseconds, 0.01);
    }
}
