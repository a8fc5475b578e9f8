using CamCube.Packets;

namespace CamCube.Transport.Simulation;

/// <summary>
/// A timer of <see cref="SimulationEngine"/>: each arming schedules one engine event, and only the
/// event of the latest arming fires (the engine skips the others as stale).
/// </summary>
internal sealed class SimulationTimer(SimulationEngine engine, int id, TimerCallback callback, object? state) : ITimer, ILoopWork
{
    private long _armedSequence;
    private long _periodNanoseconds;
    private bool _disposed;

    /// <summary>Gets whether the event with insertion sequence <paramref name="sequence"/> is this timer's current arming.</summary>
    public bool IsArmedFor(long sequence) => _armedSequence == sequence;

    /// <inheritdoc/>
    public bool Change(TimeSpan dueTime, TimeSpan period)
    {
        CheckTimeout(dueTime, nameof(dueTime));
        CheckTimeout(period, nameof(period));
        if (_disposed)
        {
            return false;
        }

        _periodNanoseconds = period == Timeout.InfiniteTimeSpan ? 0 : period.Ticks * SimulationEngine.NanosecondsPerTick;
        _armedSequence = dueTime == Timeout.InfiniteTimeSpan
            ? 0
            : engine.Schedule(dueTime.Ticks * SimulationEngine.NanosecondsPerTick, this, SimulationEventCodes.Timer, id, null);
        return true;
    }

    /// <inheritdoc/>
    public void Execute(int code, int argument, Packet? packet)
    {
        _armedSequence = _periodNanoseconds > 0
            ? engine.Schedule(_periodNanoseconds, this, SimulationEventCodes.Timer, id, null)
            : 0;
        callback(state);
    }

    /// <inheritdoc/>
    public void Dispose()
    {
        _disposed = true;
        _armedSequence = 0;
    }

    /// <inheritdoc/>
    public ValueTask DisposeAsync()
    {
        Dispose();
        return ValueTask.CompletedTask;
    }

    private static void CheckTimeout(TimeSpan value, string name)
    {
        if (value < TimeSpan.Zero && value != Timeout.InfiniteTimeSpan)
        {
            throw new ArgumentOutOfRangeException(name, value, "A timer's due time and period are non-negative or Timeout.InfiniteTimeSpan.");
        }
    }
}
