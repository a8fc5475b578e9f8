namespace CamCube.Testing.Linearizability;

/// <summary>
/// Decides whether a recorded history is linearizable against a sequential specification:
/// Wing and Gong's search for an order consistent with real time, with Lowe's improvements
/// (linearized operations are lifted out of the list, and each pair of placed operations and
/// state is explored once), and one more: an operation that leaves the state as it was (a read;
/// <see cref="ISequentialSpecification{TState, TInput, TOutput}.LeavesStateUnchanged"/>) is placed
/// as soon as it fits and never tried later, so many concurrent reads do not multiply the search;
/// and of the operations that may be placed next, those that return soonest are tried first, so an
/// operation that ran long (through a failure) is not tried early at every step.
/// Checking each key's operations on their own
/// (<see cref="CheckEachKey{TKey, TState, TInput, TOutput}"/>) is sound for objects whose keys
/// are independent, and keeps each search small.
/// </summary>
public static class LinearizabilityChecker
{
    /// <summary>The default bound on states explored per history before the verdict is <see cref="LinearizabilityVerdict.Inconclusive"/>.</summary>
    public const long StatesExploredMaxDefault = 5_000_000;

    /// <summary>Checks one history.</summary>
    /// <typeparam name="TState">The specification's state (a record with value equality).</typeparam>
    /// <typeparam name="TInput">An operation and its arguments.</typeparam>
    /// <typeparam name="TOutput">An operation's answer.</typeparam>
    /// <param name="specification">The sequential behaviour promised.</param>
    /// <param name="history">The operations, in any order.</param>
    /// <param name="statesExploredMax">A bound on the search; past it the verdict is inconclusive.</param>
    /// <returns>The verdict, an explaining order or the operation that could not be placed.</returns>
    /// <exception cref="ArgumentException">An operation returns before it was invoked.</exception>
    public static LinearizabilityResult<TInput, TOutput> Check<TState, TInput, TOutput>(
        ISequentialSpecification<TState, TInput, TOutput> specification,
        IReadOnlyList<HistoryOperation<TInput, TOutput>> history,
        long statesExploredMax = StatesExploredMaxDefault)
        where TState : notnull
    {
        ArgumentNullException.ThrowIfNull(specification);
        ArgumentNullException.ThrowIfNull(history);
        ArgumentOutOfRangeException.ThrowIfLessThan(statesExploredMax, 1);
        return new Search<TState, TInput, TOutput>(specification, history, statesExploredMax).Run();
    }

    /// <summary>Checks each key's operations as a history of its own.</summary>
    /// <typeparam name="TKey">What partitions the history (the key an operation reads or writes).</typeparam>
    /// <typeparam name="TState">The specification's state for one key.</typeparam>
    /// <typeparam name="TInput">An operation and its arguments.</typeparam>
    /// <typeparam name="TOutput">An operation's answer.</typeparam>
    /// <param name="specification">The sequential behaviour promised for one key.</param>
    /// <param name="history">The operations of every key, in any order.</param>
    /// <param name="keyOf">The key an operation belongs to.</param>
    /// <param name="statesExploredMax">A bound on each key's search.</param>
    /// <returns>Each key's verdict.</returns>
    public static IReadOnlyDictionary<TKey, LinearizabilityResult<TInput, TOutput>> CheckEachKey<TKey, TState, TInput, TOutput>(
        ISequentialSpecification<TState, TInput, TOutput> specification,
        IEnumerable<HistoryOperation<TInput, TOutput>> history,
        Func<HistoryOperation<TInput, TOutput>, TKey> keyOf,
        long statesExploredMax = StatesExploredMaxDefault)
        where TKey : notnull
        where TState : notnull
    {
        ArgumentNullException.ThrowIfNull(specification);
        ArgumentNullException.ThrowIfNull(history);
        ArgumentNullException.ThrowIfNull(keyOf);
        return history
            .GroupBy(keyOf)
            .ToDictionary(group => group.Key, group => Check(specification, group.ToList(), statesExploredMax));
    }
}
