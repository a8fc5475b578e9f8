namespace CamCube.Testing;

/// <summary>
/// Measures what steady-state work allocates, for tests that prove a path allocates nothing. A
/// garbage collection that another thread triggers while the work runs moves the calling thread's
/// allocation count by up to one allocation quantum (a few kilobytes) with nothing allocated, so a
/// run during which a collection happened is not counted; and the first runs may allocate once
/// (a type or a pool first touched), so the least of several runs is taken. Work that allocates on
/// every run shows in every run, and so in the result.
/// </summary>
public static class AllocationProbe
{
    /// <summary>Returns the fewest bytes the calling thread allocated in any of <paramref name="runs"/> collection-free runs of <paramref name="work"/>.</summary>
    /// <param name="work">The steady-state work; it runs several times, so it must leave things as it found them.</param>
    /// <param name="runs">How many collection-free runs to take (at least 1).</param>
    /// <param name="attemptsMax">How many runs to try in all before giving up.</param>
    /// <exception cref="InvalidOperationException">Fewer than <paramref name="runs"/> of <paramref name="attemptsMax"/> runs were free of collections.</exception>
    public static long OnCurrentThread(Action work, int runs = 3, int attemptsMax = 30)
    {
        ArgumentNullException.ThrowIfNull(work);
        return Measure(
            () =>
            {
                var before = GC.GetAllocatedBytesForCurrentThread();
                work();
                return GC.GetAllocatedBytesForCurrentThread() - before;
            },
            runs,
            attemptsMax);
    }

    /// <summary>
    /// Returns the least of <paramref name="runs"/> collection-free results of <paramref name="measure"/>,
    /// which runs the work and returns what it allocated, measured however the caller can (for work on
    /// another thread, that thread's own count).
    /// </summary>
    /// <param name="measure">Runs the work once and returns the bytes it allocated.</param>
    /// <param name="runs">How many collection-free runs to take (at least 1).</param>
    /// <param name="attemptsMax">How many runs to try in all before giving up.</param>
    /// <exception cref="InvalidOperationException">Fewer than <paramref name="runs"/> of <paramref name="attemptsMax"/> runs were free of collections.</exception>
    public static long Measure(Func<long> measure, int runs = 3, int attemptsMax = 30)
    {
        ArgumentNullException.ThrowIfNull(measure);
        ArgumentOutOfRangeException.ThrowIfLessThan(runs, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(attemptsMax, runs);
        var least = long.MaxValue;
        var counted = 0;
        for (var attempt = 0; attempt < attemptsMax && counted < runs; attempt++)
        {
            var collections = GC.CollectionCount(0);
            var allocated = measure();
            if (GC.CollectionCount(0) == collections)
            {
                least = Math.Min(least, allocated);
                counted++;
            }
        }

        return counted == runs
            ? least
            : throw new InvalidOperationException($"Only {counted} of {attemptsMax} runs were free of garbage collections; {runs} were needed to measure allocation.");
    }
}
