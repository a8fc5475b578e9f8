using CamCube.Memcached;

namespace CamCube.Services.Cache.Tests;

/// <summary>
/// <see cref="ReceiveThreadScheduler"/>: an answer the client's receiving thread awaits runs on that
/// thread; any other goes to the thread pool, so no answer waits for a thread that is not coming.
/// </summary>
public class ReceiveThreadSchedulerTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(30);

    [Fact]
    public void AnswerRunsOnTheReceivingThreadWhenThatThreadAwaitsIt()
    {
        var scheduler = new ReceiveThreadScheduler();
        var ranOn = -1;
        var thread = StartAwaitingThread(scheduler);

        scheduler.Schedule(_ => ranOn = Environment.CurrentManagedThreadId, null);

        Assert.True(thread.Join(s_timeout));
        Assert.Equal(thread.ManagedThreadId, ranOn);
    }

    [Fact]
    public void ReceivingThreadRunsEachAnswerWhenAnAnswerAwaitsTheNext()
    {
        var scheduler = new ReceiveThreadScheduler();
        var threads = new List<int>();
        var thread = StartAwaitingThread(scheduler);

        // The first answer's code awaits a second answer, as a connection does for its next command.
        scheduler.Schedule(
            _ =>
            {
                threads.Add(Environment.CurrentManagedThreadId);
                scheduler.Expect();
                scheduler.Schedule(_ => threads.Add(Environment.CurrentManagedThreadId), null);
            },
            null);

        Assert.True(thread.Join(s_timeout));
        Assert.Equal([thread.ManagedThreadId, thread.ManagedThreadId], threads);
    }

    [Fact]
    public async Task AnswerGoesToThePoolWhenNothingAwaitsItOnTheReceivingThread()
    {
        var scheduler = new ReceiveThreadScheduler();
        var thread = new Thread(() => { });
        scheduler.Bind(thread);

        // Awaited on another thread than the receiving one: the expectation does not count.
        scheduler.Expect();
        var ran = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        scheduler.Schedule(_ => ran.SetResult(Thread.CurrentThread.IsThreadPoolThread), null);

        Assert.True(await ran.Task.WaitAsync(s_timeout));
    }

    [Fact]
    public async Task ReleaseHandsAnAnswerTheReceivingThreadHasNotTakenToThePool()
    {
        var scheduler = new ReceiveThreadScheduler();
        var ran = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        var thread = new Thread(() =>
        {
            scheduler.Expect();
            scheduler.Schedule(_ => ran.SetResult(Thread.CurrentThread.IsThreadPoolThread), null);

            // The thread must block on something else now (unread input over its bound).
            scheduler.Release(stop: false);
            scheduler.RunExpected();
        });
        scheduler.Bind(thread);
        thread.Start();

        Assert.True(await ran.Task.WaitAsync(s_timeout));
        Assert.True(thread.Join(s_timeout));
    }

    [Fact]
    public async Task StoppingWakesTheWaitingThreadAndLaterAnswersGoToThePool()
    {
        var scheduler = new ReceiveThreadScheduler();
        var thread = StartAwaitingThread(scheduler);

        scheduler.Release(stop: true);

        Assert.True(thread.Join(s_timeout));
        var ran = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        scheduler.Schedule(_ => ran.SetResult(Thread.CurrentThread.IsThreadPoolThread), null);
        Assert.True(await ran.Task.WaitAsync(s_timeout));
    }

    /// <summary>Starts a receiving thread that awaits one answer and runs what it is given; returns once it awaits.</summary>
    private static Thread StartAwaitingThread(ReceiveThreadScheduler scheduler)
    {
        using var expecting = new ManualResetEventSlim();
        var thread = new Thread(() =>
        {
            scheduler.Expect();
            expecting.Set();
            scheduler.RunExpected();
        });
        scheduler.Bind(thread);
        thread.Start();
        Assert.True(expecting.Wait(s_timeout));
        return thread;
    }
}
