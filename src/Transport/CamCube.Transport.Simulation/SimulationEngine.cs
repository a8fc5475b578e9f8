using System.Globalization;
using CamCube.Packets;

namespace CamCube.Transport.Simulation;

/// <summary>
/// A discrete-event engine in virtual time (camcubeos 4.1): the <see cref="TimeProvider"/> and the
/// <see cref="IEventLoop"/> of every simulated node. One engine runs a whole cube on the thread
/// that calls <see cref="Run"/>, one event at a time, so a run with the same seed and scenario
/// replays exactly, with the same <see cref="TraceHash"/>.
/// </summary>
/// <remarks>
/// <para>Events are ordered by (due time, insertion sequence): two events due at the same
/// nanosecond run in the order they were scheduled. <see cref="Post"/> schedules at the current
/// time, behind everything already due now.</para>
/// <para>Virtual time counts nanoseconds from <see cref="Start"/>; <see cref="GetTimestamp"/>
/// returns them, with a <see cref="TimestampFrequency"/> of 10^9 per second. Timers and
/// <see cref="GetUtcNow"/> work in <see cref="TimeSpan"/> ticks of 100 ns.</para>
/// <para>Not thread-safe: everything, including <see cref="Post"/>, must be called on the thread
/// that drives the engine, which is where every simulated node's work runs anyway.</para>
/// </remarks>
public sealed class SimulationEngine : TimeProvider, IEventLoop
{
    /// <summary>Nanoseconds per second: the engine's <see cref="TimestampFrequency"/>.</summary>
    public const long NanosecondsPerSecond = 1_000_000_000;

    /// <summary>Nanoseconds per <see cref="TimeSpan"/> tick.</summary>
    public const long NanosecondsPerTick = 100;

    private readonly EventQueue _queue;
    private long _nowNanoseconds;
    private long _sequence;
    private int _timersCreated;
    private int _actionsScheduled;
    private TraceHash _trace = new();

    /// <summary>Creates an engine at virtual time zero.</summary>
    /// <param name="seed">The run's seed; <see cref="CreateRandom"/> derives every random stream from it.</param>
    /// <param name="start">The wall-clock time that virtual time zero stands for (default: 2026-01-01 UTC).</param>
    /// <param name="initialCapacity">The number of pending events to make room for up front.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="initialCapacity"/> is negative.</exception>
    public SimulationEngine(int seed = 0, DateTimeOffset? start = null, int initialCapacity = 1_024)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(initialCapacity);
        Seed = seed;
        Start = start ?? new DateTimeOffset(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);
        _queue = new EventQueue(initialCapacity);
    }

    /// <summary>Gets the run's seed.</summary>
    public int Seed { get; }

    /// <summary>Gets the wall-clock time that virtual time zero stands for.</summary>
    public DateTimeOffset Start { get; }

    /// <summary>Gets the virtual time since <see cref="Start"/> in nanoseconds.</summary>
    public long ElapsedNanoseconds => _nowNanoseconds;

    /// <summary>Gets the virtual time since <see cref="Start"/>, truncated to whole 100 ns ticks.</summary>
    public TimeSpan Elapsed => TimeSpan.FromTicks(_nowNanoseconds / NanosecondsPerTick);

    /// <summary>Gets how many events have run (stale timer firings excluded).</summary>
    public long EventCount { get; private set; }

    /// <summary>Gets how many events are waiting in the queue (cancelled timers included until their time comes).</summary>
    public int PendingEventCount => _queue.Count;

    /// <summary>
    /// Gets the hash of the trace so far: of the (time, code, argument, frame length) of every
    /// event that ran, in order. Simulator events carry the node and link in their argument.
    /// </summary>
    public ulong TraceHash => _trace.Value;

    /// <summary>Gets <see cref="TraceHash"/> as 16 lower-case hex digits.</summary>
    public string TraceHashHex => TraceHash.ToString("x16", CultureInfo.InvariantCulture);

    /// <inheritdoc/>
    TimeProvider IEventLoop.TimeProvider => this;

    /// <inheritdoc/>
    public override long TimestampFrequency => NanosecondsPerSecond;

    /// <summary>Gets UTC: a simulation never depends on the machine's time zone.</summary>
    public override TimeZoneInfo LocalTimeZone => TimeZoneInfo.Utc;

    /// <inheritdoc/>
    public override DateTimeOffset GetUtcNow() => Start + Elapsed;

    /// <inheritdoc/>
    public override long GetTimestamp() => _nowNanoseconds;

    /// <inheritdoc/>
    /// <remarks>The callback runs on the engine's thread at the virtual time it is due.</remarks>
    public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
    {
        ArgumentNullException.ThrowIfNull(callback);
        var timer = new SimulationTimer(this, ++_timersCreated, callback, state);
        timer.Change(dueTime, period);
        return timer;
    }

    /// <summary>Queues a work item at the current virtual time, behind everything already due now.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="target"/> is null.</exception>
    public void Post(ILoopWork target, int code, int argument, Packet? packet)
    {
        ArgumentNullException.ThrowIfNull(target);
        Enqueue(_nowNanoseconds, target, code, argument, packet);
    }

    /// <summary>Queues a work item <paramref name="delayNanoseconds"/> from now and returns its insertion sequence.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The delay is negative.</exception>
    public long Schedule(long delayNanoseconds, ILoopWork target, int code, int argument, Packet? packet)
    {
        ArgumentNullException.ThrowIfNull(target);
        ArgumentOutOfRangeException.ThrowIfNegative(delayNanoseconds);
        return Enqueue(_nowNanoseconds + delayNanoseconds, target, code, argument, packet);
    }

    /// <summary>
    /// Runs <paramref name="action"/> at virtual time <paramref name="time"/> since start (now, if
    /// that has passed). For scenarios (failures, churn, traffic phases), not for per-packet work:
    /// it allocates.
    /// </summary>
    public void At(TimeSpan time, Action action)
    {
        ArgumentNullException.ThrowIfNull(action);
        var due = Math.Max(_nowNanoseconds, time.Ticks * NanosecondsPerTick);
        Enqueue(due, new ActionWork(action), SimulationEventCodes.Action, ++_actionsScheduled, null);
    }

    /// <summary>Runs <paramref name="action"/> after <paramref name="delay"/> of virtual time.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The delay is negative.</exception>
    public void After(TimeSpan delay, Action action)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(delay, TimeSpan.Zero);
        At(Elapsed + delay, action);
    }

    /// <summary>
    /// Creates a random stream derived from <see cref="Seed"/> and <paramref name="stream"/> (a
    /// node index, say): the same pair always gives the same sequence, on every machine.
    /// </summary>
    public Random CreateRandom(int stream)
    {
        var mix = new TraceHash();
        mix.Add((ulong)(uint)Seed);
        mix.Add((ulong)(uint)stream);
        return new Random((int)(mix.Value & int.MaxValue));
    }

    /// <summary>Runs the next event, if any; returns false when the queue is empty.</summary>
    public bool Step() => RunNext(long.MaxValue);

    /// <summary>
    /// Runs every event due up to virtual time <paramref name="until"/> (since start), then moves
    /// the clock to it. Returns how many events ran.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="until"/> is before the current time.</exception>
    public long Run(TimeSpan until)
    {
        var untilNanoseconds = until.Ticks * NanosecondsPerTick;
        if (untilNanoseconds < _nowNanoseconds)
        {
            throw new ArgumentOutOfRangeException(nameof(until), until, $"Virtual time cannot go back from {Elapsed}.");
        }

        var before = EventCount;
        while (RunNext(untilNanoseconds))
        {
        }

        _nowNanoseconds = untilNanoseconds;
        return EventCount - before;
    }

    /// <summary>
    /// Runs every event due at the current virtual time, also those they schedule for now, without
    /// moving the clock (exact to the nanosecond, where <see cref="Elapsed"/> is rounded down to a tick).
    /// Returns how many ran.
    /// </summary>
    public long RunDueNow()
    {
        var before = EventCount;
        while (RunNext(_nowNanoseconds))
        {
        }

        return EventCount - before;
    }

    /// <summary>Runs events for <paramref name="duration"/> of virtual time; returns how many ran.</summary>
    public long RunFor(TimeSpan duration) => Run(Elapsed + duration);

    /// <summary>
    /// Runs events until <paramref name="condition"/> holds (checked before the first event and
    /// after each) or virtual time reaches <paramref name="limit"/> (since start). Returns whether
    /// the condition held; if not, the clock stands at <paramref name="limit"/>.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="limit"/> is before the current time.</exception>
    public bool RunUntil(Func<bool> condition, TimeSpan limit)
    {
        ArgumentNullException.ThrowIfNull(condition);
        var limitNanoseconds = limit.Ticks * NanosecondsPerTick;
        if (limitNanoseconds < _nowNanoseconds)
        {
            throw new ArgumentOutOfRangeException(nameof(limit), limit, $"Virtual time cannot go back from {Elapsed}.");
        }

        while (!condition())
        {
            if (!RunNext(limitNanoseconds))
            {
                _nowNanoseconds = limitNanoseconds;
                return condition();
            }
        }

        return true;
    }

    /// <summary>
    /// Queues a work item at virtual time <paramref name="dueNanoseconds"/> (not before now) for the
    /// simulator's own use and returns its slot, with which <see cref="Cancel"/> can cancel it while pending.
    /// </summary>
    internal int ScheduleAt(long dueNanoseconds, ILoopWork target, int code, int argument, Packet? packet) =>
        _queue.Enqueue(dueNanoseconds, ++_sequence, new SimulationEvent(target, code, argument, packet));

    /// <summary>Cancels a pending event scheduled with <see cref="ScheduleAt"/> (the caller knows it has not run) and returns its packet.</summary>
    internal Packet? Cancel(int slot) => _queue.Cancel(slot);

    private long Enqueue(long dueNanoseconds, ILoopWork target, int code, int argument, Packet? packet)
    {
        var sequence = ++_sequence;
        _queue.Enqueue(dueNanoseconds, sequence, new SimulationEvent(target, code, argument, packet));
        return sequence;
    }

    private bool RunNext(long untilNanoseconds)
    {
        while (_queue.TryPeekDue(out var due) && due <= untilNanoseconds)
        {
            var item = _queue.Dequeue(out _, out var sequence);
            _nowNanoseconds = due;
            var timer = item.Target as SimulationTimer;
            if ((timer is not null && !timer.IsArmedFor(sequence)) || item.Code == SimulationEventCodes.Cancelled)
            {
                continue;
            }

            EventCount++;
            _trace.Add((ulong)due);
            _trace.Add(((ulong)(uint)item.Code << 32) | (uint)item.Argument);
            _trace.Add((ulong)(item.Packet?.Length ?? -1));

            // The two simulator types that run most events are called directly, not through the interface.
            if (item.Target is SimulatedNetwork network)
            {
                network.RunEvent(item.Code, item.Argument, item.Packet);
            }
            else if (timer is not null)
            {
                timer.Execute(item.Code, item.Argument, item.Packet);
            }
            else
            {
                item.Target.Execute(item.Code, item.Argument, item.Packet);
            }

            return true;
        }

        return false;
    }

    private sealed class ActionWork(Action action) : ILoopWork
    {
        public void Execute(int code, int argument, Packet? packet) => action();
    }
}
