namespace CamCube.Services;

/// <summary>The due time of a one-shot timer (<see cref="INodeContext.CreateTimer"/>) set for a deadline kept as a timestamp of the node's clock.</summary>
public static class TimerWait
{
    /// <summary>
    /// Gets the wait from <paramref name="now"/> until <paramref name="deadline"/>, timestamps of a
    /// clock of <paramref name="frequency"/> ticks a second (<see cref="TimeProvider.TimestampFrequency"/>):
    /// zero when the deadline has passed, else rounded up to whole <see cref="TimeSpan"/> ticks, so a
    /// timer set with it never fires before the deadline (one that fired a fraction of a tick early
    /// would find nothing due and set itself again for the same instant).
    /// </summary>
    /// <param name="deadline">When the timer is due.</param>
    /// <param name="now">The clock now.</param>
    /// <param name="frequency">The clock's ticks per second.</param>
    /// <returns>The due time to give the timer.</returns>
    public static TimeSpan Until(long deadline, long now, long frequency) =>
        deadline <= now ? TimeSpan.Zero : TimeSpan.FromTicks((long)Math.Ceiling((double)(deadline - now) * TimeSpan.TicksPerSecond / frequency));
}
