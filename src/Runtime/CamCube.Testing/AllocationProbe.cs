namespace CamCube.Testing;

/// <summary>
/// Measures what steady-state work allocates, for tests that prove a path allocates nothing. The
/// work runs several times and the least count is taken: a run may allocate once for reasons that
/// are not the path's (a type, a pool or a lazy field first touched, one-time work of the runtime on
/// that thread), and such a one-off showed up in a CI run by a few kilobytes, never locally. Work
/// that allocates on every run shows in every run, and so in the result.
/// </summary>
public static class AllocationProbe
{
    /// <summary>Returns the fewest bytes the calling thread allocated in any of <paramref name="runs"/> runs of <paramref name="work"/>.</summary>
    /// <param name="work">The steady-state work; it runs several times, so it must leave things as it found them.</param>
    /// <param name="runs">How many runs to take (at least 1).</param>
    public static long OnCurrentThread(Action work, int runs = 3)
    {
        ArgumentNullException.ThrowIfNull(work);
        return Measure(
            () =>
            {
                var before = GC.GetAllocatedBytesForCurrentThread();
                work();
                return GC.GetAllocatedBytesForCurrentThread() - before;
            },
            runs);
    }

    /// <summary>
    /// Returns the least of <paramref name="runs"/> results of <paramref name="measure"/>, which runs
    /// the work once and returns what it allocated, measured however the caller can (for work on
    /// another thread, that thread's own count).
    /// </summary>
    /// <param name="measure">Runs the work once and returns the bytes it allocated.</param>
    /// <param name="runs">How many runs to take (at least 1).</param>
    public static long Measure(Func<long> measure, int runs = 3)
    {
        ArgumentNullException.ThrowIfNull(measure);
        ArgumentOutOfRangeException.ThrowIfLessThan(runs, 1);
        var least = long.MaxValue;
        for (var run = 0; run < runs; run++)
        {
            least = Math.Min(least, measure());
        }

        return least;
    }
}
