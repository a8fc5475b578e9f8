using CamCube.Packets;

namespace CamCube.Transport.Simulation.Tests;

public sealed class SimulationEngineTests
{
    [Fact]
    public void EventsRunInTimeOrderThenInsertionOrderWhenScheduledOutOfOrder()
    {
        var engine = new SimulationEngine();
        var log = new Log(engine);
        engine.Schedule(300, log, 1, 0, null);
        engine.Schedule(100, log, 2, 0, null);
        engine.Schedule(300, log, 3, 0, null);
        engine.Schedule(100, log, 4, 0, null);
        engine.Post(log, 5, 0, null);

        engine.Run(TimeSpan.FromMicroseconds(1));

        Assert.Equal([(0L, 5), (100L, 2), (100L, 4), (300L, 1), (300L, 3)], log.Entries);
        Assert.Equal(5, engine.EventCount);
        Assert.Equal(1_000, engine.ElapsedNanoseconds);
    }

    [Fact]
    public void PostRunsBehindEverythingAlreadyDueNowWhenPostedFromAnEvent()
    {
        var engine = new SimulationEngine();
        var log = new Log(engine);
        log.OnExecute = code =>
        {
            if (code == 1)
            {
                engine.Post(log, 3, 0, null);
            }
        };
        engine.Schedule(50, log, 1, 0, null);
        engine.Schedule(50, log, 2, 0, null);

        engine.Run(TimeSpan.FromTicks(1));

        Assert.Equal([(50L, 1), (50L, 2), (50L, 3)], log.Entries);
    }

    [Fact]
    public void RunDueNowRunsWhatIsDueAtANanosecondThatIsNotAWholeTickAndLeavesTheClock()
    {
        var engine = new SimulationEngine();
        var log = new Log(engine);
        log.OnExecute = code =>
        {
            if (code == 1)
            {
                engine.Post(log, 2, 0, null);
            }
        };
        engine.Schedule(150, log, 1, 0, null);
        engine.Schedule(151, log, 3, 0, null);
        engine.RunUntil(() => log.Entries.Count == 1, TimeSpan.FromMicroseconds(1));

        var ran = engine.RunDueNow();

        Assert.Equal(1, ran);
        Assert.Equal([(150L, 1), (150L, 2)], log.Entries);
        Assert.Equal(150, engine.ElapsedNanoseconds);
        Assert.Equal(1, engine.PendingEventCount);
    }

    [Fact]
    public void RunLeavesLaterEventsQueuedWhenTheyAreDueAfterUntil()
    {
        var engine = new SimulationEngine();
        var log = new Log(engine);
        engine.Schedule(1_000, log, 1, 0, null);
        engine.Schedule(1_001, log, 2, 0, null);

        var ran = engine.Run(TimeSpan.FromMicroseconds(1));

        Assert.Equal(1, ran);
        Assert.Equal(1, engine.PendingEventCount);
        Assert.Equal(TimeSpan.FromMicroseconds(1), engine.Elapsed);
        Assert.Throws<ArgumentOutOfRangeException>(() => engine.Run(TimeSpan.Zero));
    }

    [Fact]
    public void RunUntilStopsAtTheEventThatMakesTheConditionTrue()
    {
        var engine = new SimulationEngine();
        var log = new Log(engine);
        for (var i = 1; i <= 10; i++)
        {
            engine.Schedule(i * 10, log, i, 0, null);
        }

        var held = engine.RunUntil(() => log.Entries.Count == 4, TimeSpan.FromSeconds(1));

        Assert.True(held);
        Assert.Equal(40, engine.ElapsedNanoseconds);
        Assert.Equal(6, engine.PendingEventCount);
    }

    [Fact]
    public void RunUntilReturnsFalseAtTheLimitWhenTheConditionNeverHolds()
    {
        var engine = new SimulationEngine();
        var log = new Log(engine);
        engine.Schedule(10, log, 1, 0, null);
        engine.Schedule(2_000, log, 2, 0, null);

        var held = engine.RunUntil(() => false, TimeSpan.FromMicroseconds(1));

        Assert.False(held);
        Assert.Equal(1_000, engine.ElapsedNanoseconds);
        Assert.Single(log.Entries);
    }

    [Fact]
    public void ClockReadsVirtualTimeWhenEventsRun()
    {
        var start = new DateTimeOffset(2030, 5, 1, 0, 0, 0, TimeSpan.Zero);
        var engine = new SimulationEngine(start: start);
        engine.Schedule(1_234_567, new Log(engine), 1, 0, null);

        engine.Step();

        Assert.Equal(1_234_567, engine.GetTimestamp());
        Assert.Equal(1_000_000_000, engine.TimestampFrequency);
        Assert.Equal(start + TimeSpan.FromTicks(12_345), engine.GetUtcNow());
        Assert.Equal(TimeSpan.FromTicks(12_345), engine.GetElapsedTime(0));
        Assert.Equal(TimeZoneInfo.Utc, engine.LocalTimeZone);
    }

    [Fact]
    public void OneShotTimerFiresOnceAtItsDueTime()
    {
        var engine = new SimulationEngine();
        var fired = new List<long>();
        using var timer = engine.CreateTimer(_ => fired.Add(engine.ElapsedNanoseconds), null, TimeSpan.FromMilliseconds(5), Timeout.InfiniteTimeSpan);

        engine.Run(TimeSpan.FromSeconds(1));

        Assert.Equal([5_000_000L], fired);
    }

    [Fact]
    public void PeriodicTimerFiresEveryPeriodUntilDisposed()
    {
        var engine = new SimulationEngine();
        var fired = new List<long>();
        var timer = engine.CreateTimer(_ => fired.Add(engine.ElapsedNanoseconds), null, TimeSpan.FromMilliseconds(1), TimeSpan.FromMilliseconds(2));
        engine.At(TimeSpan.FromMilliseconds(6), timer.Dispose);

        engine.Run(TimeSpan.FromMilliseconds(20));

        Assert.Equal([1_000_000L, 3_000_000L, 5_000_000L], fired);
        Assert.False(timer.Change(TimeSpan.Zero, Timeout.InfiniteTimeSpan));
    }

    [Fact]
    public void ChangedTimerFiresOnlyAtItsLatestDueTimeAndStaleFiringsAreNotCounted()
    {
        var engine = new SimulationEngine();
        var fired = new List<long>();
        using var timer = engine.CreateTimer(_ => fired.Add(engine.ElapsedNanoseconds), null, TimeSpan.FromMilliseconds(1), Timeout.InfiniteTimeSpan);
        timer.Change(TimeSpan.FromMilliseconds(3), Timeout.InfiniteTimeSpan);
        timer.Change(TimeSpan.FromMilliseconds(2), Timeout.InfiniteTimeSpan);

        engine.Run(TimeSpan.FromMilliseconds(10));

        Assert.Equal([2_000_000L], fired);
        Assert.Equal(1, engine.EventCount);
    }

    [Fact]
    public void TimerRejectsNegativeDueTimeOtherThanInfinite()
    {
        var engine = new SimulationEngine();

        Assert.Throws<ArgumentOutOfRangeException>(() => engine.CreateTimer(_ => { }, null, TimeSpan.FromTicks(-2), Timeout.InfiniteTimeSpan));
    }

    [Fact]
    public void AtRunsActionsInTimeOrderAndAfterIsRelativeToNow()
    {
        var engine = new SimulationEngine();
        var order = new List<string>();
        engine.At(TimeSpan.FromSeconds(2), () => order.Add("b"));
        engine.At(TimeSpan.FromSeconds(1), () =>
        {
            order.Add("a");
            engine.After(TimeSpan.FromSeconds(5), () => order.Add("c"));
        });

        engine.Run(TimeSpan.FromSeconds(10));

        Assert.Equal(["a", "b", "c"], order);
    }

    [Fact]
    public void TraceHashIsEqualWhenTheSameEventsRunAndDiffersWhenTheirOrderDiffers()
    {
        static string Trace(bool swap)
        {
            var engine = new SimulationEngine();
            var log = new Log(engine);
            engine.Schedule(10, log, swap ? 2 : 1, 0, null);
            engine.Schedule(10, log, swap ? 1 : 2, 0, null);
            engine.Run(TimeSpan.FromTicks(1));
            return engine.TraceHashHex;
        }

        Assert.Equal(Trace(swap: false), Trace(swap: false));
        Assert.NotEqual(Trace(swap: false), Trace(swap: true));
        Assert.Equal(16, Trace(swap: false).Length);
    }

    [Fact]
    public void CreateRandomGivesTheSameStreamForTheSameSeedAndStream()
    {
        var a = new SimulationEngine(seed: 42).CreateRandom(3);
        var b = new SimulationEngine(seed: 42).CreateRandom(3);
        var c = new SimulationEngine(seed: 42).CreateRandom(4);
        var d = new SimulationEngine(seed: 43).CreateRandom(3);

        var first = a.NextInt64();
        Assert.Equal(first, b.NextInt64());
        Assert.NotEqual(first, c.NextInt64());
        Assert.NotEqual(first, d.NextInt64());
    }

    private sealed class Log(SimulationEngine engine) : ILoopWork
    {
        public List<(long Nanoseconds, int Code)> Entries { get; } = [];

        public Action<int>? OnExecute { get; set; }

        public void Execute(int code, int argument, Packet? packet)
        {
            Entries.Add((engine.ElapsedNanoseconds, code));
            OnExecute?.Invoke(code);
        }
    }
}
