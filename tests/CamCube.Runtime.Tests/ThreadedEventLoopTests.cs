using CamCube.Packets;
using CamCube.Runtime.Loops;
using CamCube.Transport;

namespace CamCube.Runtime.Tests;

public sealed class ThreadedEventLoopTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(10);

    [Theory]
    [InlineData(0)]
    [InlineData(200)]
    public void WorkPostedFromManyThreadsRunsInOrderPerThreadOnTheLoopThread(int idleSpinMicroseconds)
    {
        using var loop = new ThreadedEventLoop("loop test", idleSpin: TimeSpan.FromMicroseconds(idleSpinMicroseconds));
        var work = new RecordingWork(loop, expected: 4 * 500);
        var posters = Enumerable.Range(0, 4).Select(t => new Thread(() =>
        {
            for (var i = 0; i < 500; i++)
            {
                loop.Post(work, t, i, null);
            }
        })).ToList();
        posters.ForEach(p => p.Start());
        posters.ForEach(p => p.Join());

        Assert.True(work.Done.Wait(s_timeout));
        Assert.False(work.RanOffLoop);
        for (var t = 0; t < 4; t++)
        {
            Assert.Equal(Enumerable.Range(0, 500), work.Arguments(t));
        }
    }

    [Fact]
    public void WorkPostedRunsWhenTheLoopHasGoneToSleepAfterItsSpin()
    {
        using var loop = new ThreadedEventLoop("loop test", idleSpin: TimeSpan.FromMicroseconds(50));
        var work = new RecordingWork(loop, expected: 1);

        // The 50 µs spin over, the loop waits on its monitor (a spin never shows as a wait): the post must wake it.
        Assert.True(SpinWait.SpinUntil(() => IsAsleep(loop), s_timeout), "The loop goes to sleep once its idle spin has run out.");
        loop.Post(work, 0, 7, null);

        Assert.True(work.Done.Wait(s_timeout));
        Assert.Equal([7], work.Arguments(0));
    }

    [Fact]
    public void TheLoopThreadHasEndedWhenDisposeOfASpinningLoopReturns()
    {
        var loop = new ThreadedEventLoop("loop test", idleSpin: TimeSpan.FromMilliseconds(500));
        Assert.True(loop.LoopThread.IsAlive);

        loop.Dispose();

        Assert.False(loop.LoopThread.IsAlive);
        Assert.Equal(ThreadState.Stopped, loop.LoopThread.ThreadState & ThreadState.Stopped);
    }

    [Fact]
    public void WorkQueuedBehindIsDroppedAndItsPacketReleasedWhenAWorkItemDisposesTheLoop()
    {
        var pool = new PacketPool(64);
        var loop = new ThreadedEventLoop("loop test", idleSpin: TimeSpan.FromMilliseconds(500));
        using var queued = new ManualResetEventSlim();
        var behind = new RecordingWork(loop, expected: 1);

        // The first item holds the loop until the second is queued behind it, then disposes the loop from its own thread.
        loop.Post(new DisposingWork(loop, queued), 0, 0, null);
        loop.Post(behind, 0, 1, pool.Rent());
        queued.Set();

        Assert.True(loop.LoopThread.Join(s_timeout), "The loop's thread ends after the item that disposed it.");
        Assert.Empty(behind.Arguments(0));
        Assert.Equal(1, pool.CreatedCount);
        Assert.Equal(1, pool.FreeCount);
    }

    [Fact]
    public void APacketIsReleasedAndNothingRunsWhenWorkIsPostedToADisposedLoop()
    {
        var pool = new PacketPool(64);
        var loop = new ThreadedEventLoop("loop test", idleSpin: TimeSpan.FromMilliseconds(500));
        loop.Dispose();
        var work = new RecordingWork(loop, expected: 1);

        loop.Post(work, 0, 0, pool.Rent());

        Assert.Equal(1, pool.FreeCount);
        Assert.Empty(work.Arguments(0));
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(1_000_001)]
    public void AnIdleSpinOutsideZeroToOneSecondIsRefused(int microseconds)
    {
        var ex = Assert.Throws<ArgumentOutOfRangeException>(() => new ThreadedEventLoop("loop test", idleSpin: TimeSpan.FromMicroseconds(microseconds)));
        Assert.Contains("idle spin", ex.Message, StringComparison.Ordinal);
    }

    /// <summary>Gets whether the loop's thread is blocked in a wait (on its monitor: nothing else in the loop waits).</summary>
    private static bool IsAsleep(ThreadedEventLoop loop) => (loop.LoopThread.ThreadState & ThreadState.WaitSleepJoin) != 0;

    private sealed class DisposingWork(ThreadedEventLoop loop, ManualResetEventSlim queued) : ILoopWork
    {
        public void Execute(int code, int argument, Packet? packet)
        {
            Assert.True(queued.Wait(s_timeout));
            loop.Dispose();
        }
    }

    private sealed class RecordingWork(ThreadedEventLoop loop, int expected) : ILoopWork
    {
        private readonly List<int>[] _arguments = [.. Enumerable.Range(0, 4).Select(_ => new List<int>())];
        private int _count;

        public ManualResetEventSlim Done { get; } = new();

        public bool RanOffLoop { get; private set; }

        public int[] Arguments(int code)
        {
            lock (_arguments)
            {
                return [.. _arguments[code]];
            }
        }

        public void Execute(int code, int argument, Packet? packet)
        {
            RanOffLoop |= !loop.IsOnLoopThread;
            packet?.Release();
            lock (_arguments)
            {
                _arguments[code].Add(argument);
            }

            if (++_count == expected)
            {
                Done.Set();
            }
        }
    }
}
