using CamCube.Packets;
using CamCube.Transport;

namespace CamCube.Runtime.Loops;

/// <summary>
/// An event loop in virtual time that runs on whichever thread drives it: work items in the
/// order they were posted, timers of its <see cref="ManualTimeProvider"/> in due order. Every
/// node of an in-memory cube shares one, so a test replays exactly.
/// </summary>
public sealed class DeterministicEventLoop : IEventLoop
{
    private readonly Lock _gate = new();
    private readonly Queue<LoopWorkItem> _queue = new();

    /// <summary>Creates a loop with a fresh manual clock.</summary>
    public DeterministicEventLoop(ManualTimeProvider? clock = null)
    {
        Clock = clock ?? new ManualTimeProvider();
    }

    /// <summary>Gets the loop's clock.</summary>
    public ManualTimeProvider Clock { get; }

    /// <inheritdoc/>
    public TimeProvider TimeProvider => Clock;

    /// <summary>Gets how many work items this loop has run.</summary>
    public long ExecutedCount { get; private set; }

    /// <summary>Gets how many work items are waiting.</summary>
    public int PendingCount
    {
        get
        {
            lock (_gate)
            {
                return _queue.Count;
            }
        }
    }

    /// <inheritdoc/>
    public void Post(ILoopWork target, int code, int argument, Packet? packet)
    {
        ArgumentNullException.ThrowIfNull(target);
        lock (_gate)
        {
            _queue.Enqueue(new LoopWorkItem(target, code, argument, packet));
        }
    }

    /// <summary>Runs work items until none is left or <paramref name="itemsMax"/> have run; returns how many ran.</summary>
    public long RunUntilIdle(long itemsMax = long.MaxValue)
    {
        long ran = 0;
        while (ran < itemsMax && TryDequeue(out var item))
        {
            item.Run();
            ran++;
            ExecutedCount++;
        }

        return ran;
    }

    /// <summary>Runs work and timers for <paramref name="duration"/> of virtual time.</summary>
    public void RunFor(TimeSpan duration) => RunUntil(static () => false, duration);

    /// <summary>
    /// Runs work and timers until <paramref name="condition"/> holds (checked whenever the loop is
    /// idle) or <paramref name="timeout"/> of virtual time has passed. Returns whether the condition held.
    /// </summary>
    public bool RunUntil(Func<bool> condition, TimeSpan timeout)
    {
        ArgumentNullException.ThrowIfNull(condition);
        var end = Clock.Elapsed + timeout;
        while (true)
        {
            RunUntilIdle();
            if (condition())
            {
                return true;
            }

            var next = Clock.NextDue;
            if (next is null || next.Value > end)
            {
                Clock.AdvanceTo(end);
                RunUntilIdle();
                return condition();
            }

            Clock.AdvanceTo(next.Value);
        }
    }

    private bool TryDequeue(out LoopWorkItem item)
    {
        lock (_gate)
        {
            return _queue.TryDequeue(out item);
        }
    }
}
