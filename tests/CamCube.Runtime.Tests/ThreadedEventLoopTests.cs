using CamCube.Packets;
using CamCube.Runtime.Loops;
using CamCube.Transport;

namespace CamCube.Runtime.Tests;

public sealed class ThreadedEventLoopTests
{
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

        Assert.True(work.Done.Wait(TimeSpan.FromSeconds(10)));
        Assert.False(work.RanOffLoop);
        for (var t = 0; t < 4; t++)
        {
            Assert.Equal(Enumerable.Range(0, 500), work.Arguments(t));
        }
    }

    [Fact]
    public void ASpinningLoopStillRunsWorkPostedAfterItWentToSleep()
    {
        using var loop = new ThreadedEventLoop("loop test", idleSpin: TimeSpan.FromMicroseconds(50));
        var work = new RecordingWork(loop, expected: 1);

        // Long after the 50 µs spin has ended, the loop sleeps; the post must wake it.
        using var timer = new ManualResetEventSlim();
        Assert.False(timer.Wait(TimeSpan.FromMilliseconds(20)));
        loop.Post(work, 0, 7, null);

        Assert.True(work.Done.Wait(TimeSpan.FromSeconds(10)));
        Assert.Equal([7], work.Arguments(0));
    }

    [Fact]
    public void DisposingASpinningLoopStopsItsThreadAndReleasesQueuedPackets()
    {
        var pool = new PacketPool(64);
        var loop = new ThreadedEventLoop("loop test", idleSpin: TimeSpan.FromMilliseconds(500));
        loop.Dispose();
        var packet = pool.Rent();
        loop.Post(new RecordingWork(loop, expected: 1), 0, 0, packet);
        Assert.Equal(1, pool.FreeCount);
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(1_000_001)]
    public void AnIdleSpinOutsideZeroToOneSecondIsRefused(int microseconds)
    {
        var ex = Assert.Throws<ArgumentOutOfRangeException>(() => new ThreadedEventLoop("loop test", idleSpin: TimeSpan.FromMicroseconds(microseconds)));
        Assert.Contains("idle spin", ex.Message, StringComparison.Ordinal);
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
