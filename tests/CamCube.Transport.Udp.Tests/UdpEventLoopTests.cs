using CamCube.Packets;
using CamCube.Testing;

namespace CamCube.Transport.Udp.Tests;

public sealed class UdpEventLoopTests : IDisposable
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(10);
    private readonly TestCube _cube = TestCube.Start(new TorusShape(2, 1, 1), include: c => c == new Coordinate(0, 0, 0));

    private TestNode Node => _cube.Nodes[0];

    private UdpEventLoop Loop => Node.UdpLoop!;

    public void Dispose() => _cube.Dispose();

    [Fact]
    public void PostFromAnotherThreadWakesTheLoopBlockedInItsSocketWithOneDatagram()
    {
        Assert.True(Loop.HasSocket);
        WaitUntilBlocked();
        var sent = Loop.WakeDatagramsSent;

        var ranOn = LoopAction.Run(Node.Loop, () => Environment.CurrentManagedThreadId);

        Assert.NotEqual(Environment.CurrentManagedThreadId, ranOn);
        Assert.Equal(sent + 1, Loop.WakeDatagramsSent);
        Assert.True(SpinWait.SpinUntil(() => Loop.WakeDatagramsReceived == Loop.WakeDatagramsSent, s_timeout));
        Assert.Equal(0, Node.Transport.DroppedUnknownSender + Node.Transport.DroppedMalformed);
    }

    [Fact]
    public void PostsToABusyLoopOrFromTheLoopItselfSendNoWakeDatagram()
    {
        using var busy = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        using var ran = new CountdownEvent(200);
        var count = new CountingWork(ran);
        Node.Loop.Post(new BlockingWork(busy, release), 0, 0, null);
        Assert.True(busy.Wait(s_timeout));
        var sent = Loop.WakeDatagramsSent;

        for (var i = 0; i < 100; i++)
        {
            Node.Loop.Post(count, 0, 0, null);
        }

        Assert.Equal(sent, Loop.WakeDatagramsSent);
        release.Set();
        var sentFromLoop = LoopAction.Run(Node.Loop, () =>
        {
            var before = Loop.WakeDatagramsSent;
            for (var i = 0; i < 100; i++)
            {
                Node.Loop.Post(count, 0, 0, null);
            }

            return Loop.WakeDatagramsSent - before;
        });

        Assert.Equal(0, sentFromLoop);
        Assert.True(ran.Wait(s_timeout));
    }

    [Theory]
    [InlineData(5)]
    [InlineData(30)]
    [InlineData(300)]
    public async Task TimerFiresOnTheLoopWhileItIsBlockedInItsSocketWithNoWakeDatagramAndNotBeforeItIsDue(int dueMilliseconds)
    {
        // 5 ms: a poll; 30 and 300 ms: a receive whose timeout ends early (the kernel's is coarse), then a poll for the rest.
        var dueTime = TimeSpan.FromMilliseconds(dueMilliseconds);
        var fired = new TaskCompletionSource<(long Timestamp, int Thread)>(TaskCreationOptions.RunContinuationsAsynchronously);
        var (created, loopThread) = LoopAction.Run(Node.Loop, () =>
        {
            _ = Node.Loop.TimeProvider.CreateTimer(_ => fired.TrySetResult((TimeProvider.System.GetTimestamp(), Environment.CurrentManagedThreadId)), null, dueTime, Timeout.InfiniteTimeSpan);
            return (TimeProvider.System.GetTimestamp(), Environment.CurrentManagedThreadId);
        });
        var sent = Loop.WakeDatagramsSent;

        var (firedAt, firedOn) = await fired.Task.WaitAsync(s_timeout);

        Assert.Equal(loopThread, firedOn);
        Assert.True(TimeProvider.System.GetElapsedTime(created, firedAt) >= dueTime);

        // Nothing posted meanwhile: the loop woke from its receive's or poll's timeout, not from a datagram.
        Assert.Equal(sent, Loop.WakeDatagramsSent);
    }

    [Fact]
    public async Task TimerCreatedOnAnotherThreadWakesTheBlockedLoopAndFiresOnIt()
    {
        var loopThread = LoopAction.Run(Node.Loop, () => Environment.CurrentManagedThreadId);
        WaitUntilBlocked();
        var fired = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        var start = TimeProvider.System.GetTimestamp();

        using var timer = Node.Loop.TimeProvider.CreateTimer(_ => fired.TrySetResult(Environment.CurrentManagedThreadId), null, TimeSpan.FromMilliseconds(20), Timeout.InfiniteTimeSpan);

        Assert.Equal(loopThread, await fired.Task.WaitAsync(s_timeout));
        Assert.True(TimeProvider.System.GetElapsedTime(start) >= TimeSpan.FromMilliseconds(20));
    }

    [Fact]
    public async Task PeriodicTimerFiresUntilItsCallbackDisposesItAndThenNeverAgain()
    {
        var ticks = 0;
        ITimer? periodic = null;
        var later = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        LoopAction.Run(Node.Loop, () =>
        {
            periodic = Node.Loop.TimeProvider.CreateTimer(
                _ =>
                {
                    if (++ticks == 3)
                    {
                        periodic!.Dispose();

                        // Due well after the fourth tick would have been: it reads the count then.
                        _ = Node.Loop.TimeProvider.CreateTimer(_ => later.TrySetResult(ticks), null, TimeSpan.FromMilliseconds(50), Timeout.InfiniteTimeSpan);
                    }
                },
                null,
                TimeSpan.FromMilliseconds(5),
                TimeSpan.FromMilliseconds(5));
        });

        Assert.Equal(3, await later.Task.WaitAsync(s_timeout));
        Assert.False(LoopAction.Run(Node.Loop, () => periodic!.Change(TimeSpan.Zero, TimeSpan.Zero)));
    }

    [Fact]
    public async Task ChangedTimerFiresOnceAtItsNewTimeWhenChangedBeforeItsFirstDueTime()
    {
        var clock = Node.Loop.TimeProvider;
        var firedAt = new List<long>();
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var changedAt = LoopAction.Run(Node.Loop, () =>
        {
            var timer = clock.CreateTimer(_ => firedAt.Add(clock.GetTimestamp()), null, TimeSpan.FromMilliseconds(5), Timeout.InfiniteTimeSpan);
            var changedAt = clock.GetTimestamp();
            Assert.True(timer.Change(TimeSpan.FromMilliseconds(20), Timeout.InfiniteTimeSpan));
            _ = clock.CreateTimer(_ => done.TrySetResult(), null, TimeSpan.FromMilliseconds(60), Timeout.InfiniteTimeSpan);
            return changedAt;
        });

        await done.Task.WaitAsync(s_timeout);

        // Once, not at 5 ms (its old time), and before the timer due at 60 ms: the loop's own clock says when.
        var at = Assert.Single(LoopAction.Run(Node.Loop, firedAt.ToArray));
        var after = clock.GetElapsedTime(changedAt, at);
        Assert.True(after >= TimeSpan.FromMilliseconds(20), $"The changed timer fired {after.TotalMilliseconds} ms after the change, before its new time of 20 ms.");
    }

    [Fact]
    public void TransportOnAUdpLoopRefusesToStartOffTheLoopThread()
    {
        using var loop = new UdpEventLoop("off-loop start");
        var options = new UdpTransportOptions { Addressing = UdpPeerAddressing.FromBasePort(TestCube.FindFreeBasePort(2)), ClusterKey = TestCube.Key };
        var transport = new UdpLinkTransport(new TorusShape(2, 1, 1), new Coordinate(0, 0, 0), loop, new PacketPool(2048), options);

        var ex = Assert.Throws<InvalidOperationException>(() => transport.Start(new RecordingSink()));

        Assert.Contains("loop's thread", ex.Message, StringComparison.Ordinal);
        Assert.Null(transport.LocalEndPoint);
    }

    [Fact]
    public async Task StoppedTransportIsDetachedAndTheLoopKeepsRunningWorkAndTimers()
    {
        LoopAction.Run(Node.Loop, Node.Transport.Stop);

        Assert.False(Loop.HasSocket);
        var fired = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var timer = Node.Loop.TimeProvider.CreateTimer(_ => fired.TrySetResult(), null, TimeSpan.FromMilliseconds(10), Timeout.InfiniteTimeSpan);
        await fired.Task.WaitAsync(s_timeout);
        Assert.Equal(7, LoopAction.Run(Node.Loop, () => 7));
    }

    [Fact]
    public async Task DisposeEndsALoopBlockedInItsSocketAndLaterPostsReleaseTheirPackets()
    {
        var options = new UdpTransportOptions { Addressing = UdpPeerAddressing.FromBasePort(TestCube.FindFreeBasePort(2)), ClusterKey = TestCube.Key };
        var node = TestNode.Start(new TorusShape(2, 1, 1), new Coordinate(0, 0, 0), options);
        var loop = node.UdpLoop!;
        Assert.True(SpinWait.SpinUntil(() => loop.IsBlockedInSocket, s_timeout));

        await Task.Run(loop.Dispose).WaitAsync(s_timeout);

        var pool = new PacketPool(2048);
        loop.Post(new CountingWork(null), 0, 0, pool.Rent());
        Assert.Equal(pool.CreatedCount, pool.FreeCount);

        // Its loop gone, the transport stops from this thread.
        node.Transport.Stop();
        Assert.False(node.Transport.HasRoom(LinkDirection.PlusX));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(50)]
    public void ReceivingAndDeliveringAllocatesNothingOnTheLoopThreadInSteadyState(int spinAfterSendMicroseconds)
    {
        using var cube = TestCube.Start(new TorusShape(2, 1, 1));
        var a = cube.Nodes[0];
        var b = cube.Nodes[1];

        // b's credit datagrams earn its loop a spin when it has one.
        b.UdpLoop!.SpinAfterSend = TimeSpan.FromMicroseconds(spinAfterSendMicroseconds);
        b.Sink.CountOnly = true;
        var frames = Enumerable.Range(0, 20).Select(i => new byte[100 + i]).ToArray();
        var received = 0;

        void Rounds(int count)
        {
            for (var round = 0; round < count; round++)
            {
                // One frame per burst: a datagram each, and a credit datagram back every eighth (a quarter of the window).
                foreach (var frame in frames)
                {
                    Assert.Equal(1, a.SendBurst(LinkDirection.PlusX, [frame]));
                }

                received += frames.Length;
                Assert.True(b.Sink.WaitFor(s => s.FrameCount == received, s_timeout));
            }
        }

        Rounds(3);
        b.Pool.Preallocate(256);
        var allocated = AllocationProbe.Measure(() =>
        {
            var before = LoopAction.Run(b.Loop, GC.GetAllocatedBytesForCurrentThread);
            Rounds(10);
            return LoopAction.Run(b.Loop, GC.GetAllocatedBytesForCurrentThread) - before;
        });

        // 200 datagrams were polled for, read, opened, delivered and 25 credited on b's loop; only
        // the test's two LoopAction completions may allocate there, a few hundred bytes at most.
        Assert.InRange(allocated, 0, 1_024);
        Assert.Equal(spinAfterSendMicroseconds > 0, b.UdpLoop.Spins > 0);
    }

    private void WaitUntilBlocked() =>
        Assert.True(SpinWait.SpinUntil(() => Loop.IsBlockedInSocket, s_timeout), "The loop blocks on its socket when it has nothing to do.");

    private sealed class BlockingWork(ManualResetEventSlim busy, ManualResetEventSlim release) : ILoopWork
    {
        public void Execute(int code, int argument, Packet? packet)
        {
            busy.Set();
            release.Wait();
        }
    }

    private sealed class CountingWork(CountdownEvent? ran) : ILoopWork
    {
        public void Execute(int code, int argument, Packet? packet)
        {
            packet?.Release();
            ran?.Signal();
        }
    }
}
