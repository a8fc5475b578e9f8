using CamCube.Packets;

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
    public void ASpinEndsWithTheDatagramAndNotWithWorkWhenTheReplyWaitsAsTheLoopRunsOutOfWork()
    {
        Loop.SpinAfterSend = UdpEventLoop.SpinAfterSendMax;
        var b = _cube.Nodes[1];
        using var sent = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        Assert.True(SpinWait.SpinUntil(() => Loop.IsBlockedInSocket, s_timeout));
        var before = (Loop.Spins, Loop.SpinsAnswered, Loop.SpinsAnsweredByDatagram);

        // a's loop sends a frame and, in the same turn, holds on until b's reply waits in its socket:
        // when it lets go, it has no work left and has earned a spin, which finds the datagram at its first look.
        A.Loop.Post(new SendThenHold(A, sent, release), 0, 0, null);
        Assert.True(sent.Wait(s_timeout));
        Assert.True(b.Sink.WaitFor(s => s.FrameCount == 1, s_timeout));
        Assert.Equal(1, b.SendBurst(LinkDirection.PlusX, [[2]]));
        var socket = A.Transport.BoundSocket!;
        Assert.True(SpinWait.SpinUntil(() => socket.Available > 0, s_timeout), "b's reply reaches a's socket.");
        release.Set();

        Assert.True(A.Sink.WaitFor(s => s.FrameCount == 1, s_timeout));
        Assert.Equal([2], A.Sink.Frames[0].Bytes);
        Assert.Equal((before.Spins + 1, before.SpinsAnswered + 1, before.SpinsAnsweredByDatagram + 1), (Loop.Spins, Loop.SpinsAnswered, Loop.SpinsAnsweredByDatagram));
    }

    [Fact]
    public void ASpinEndsAndTheNextSpinsAreSkippedWhenAYieldFindsTheCoreContended()
    {
        Loop.SpinAfterSend = UdpEventLoop.SpinAfterSendMax;
        Assert.True(SpinWait.SpinUntil(() => Loop.IsBlockedInSocket, s_timeout));
        var before = (Loop.Spins, Loop.SpinsContended, Loop.SpinsSkipped);

        // A yield that keeps the core from the loop for 100 us: another thread had it, as when 27 nodes share 2 cores.
        Loop.YieldCpu = static () =>
        {
            var end = TimeProvider.System.GetTimestamp() + (TimeProvider.System.TimestampFrequency / 10_000);
            while (TimeProvider.System.GetTimestamp() < end)
            {
            }
        };
        Assert.Equal(1, A.SendBurst(LinkDirection.PlusX, [[1]]));
        Assert.True(SpinWait.SpinUntil(() => Loop.SpinsContended == before.SpinsContended + 1 && Loop.IsBlockedInSocket, s_timeout));

        // The next sends earn no spin (8 are skipped after a first contention).
        Loop.YieldCpu = static () => Thread.Yield();
        Assert.Equal(1, A.SendBurst(LinkDirection.PlusX, [[2]]));
        Assert.True(SpinWait.SpinUntil(() => Loop.SpinsSkipped == before.SpinsSkipped + 1 && Loop.IsBlockedInSocket, s_timeout));
        Assert.Equal(before.Spins + 1, Loop.Spins);
        Assert.True(_cube.Nodes[1].Sink.WaitFor(s => s.FrameCount == 2, s_timeout));
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

    /// <summary>
    /// Sends one frame on a's loop (the transport posts the burst's flush behind this item), then
    /// posts itself behind the flush to hold the loop, once the datagram is out, until released.
    /// </summary>
    private sealed class SendThenHold(TestNode node, ManualResetEventSlim sent, ManualResetEventSlim release) : ILoopWork
    {
        private const int CodeSend = 0;
        private const int CodeHold = 1;

        public void Execute(int code, int argument, Packet? packet)
        {
            if (code == CodeSend)
            {
                Assert.True(node.Transport.TrySend(LinkDirection.PlusX, node.Frame([1])));
                node.Loop.Post(this, CodeHold, 0, null);
                return;
            }

            sent.Set();
            Assert.True(release.Wait(s_timeout));
        }
    }
}
