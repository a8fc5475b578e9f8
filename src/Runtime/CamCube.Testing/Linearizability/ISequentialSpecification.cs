namespace CamCube.Testing.Linearizability;

/// <summary>
/// The sequential behaviour a concurrent object promises: its initial state and what one
/// operation does to a state. A history is linearizable when its operations can be put in one
/// order, consistent with real time, in which every answer is the one this specification gives.
/// </summary>
/// <typeparam name="TState">An immutable state with value equality (a record), so the checker can remember visited states.</typeparam>
/// <typeparam name="TInput">An operation and its arguments.</typeparam>
/// <typeparam name="TOutput">An operation's answer.</typeparam>
public interface ISequentialSpecification<TState, TInput, TOutput>
    where TState : notnull
{
    /// <summary>Gets the state before any operation.</summary>
    TState Initial { get; }

    /// <summary>Applies an operation whose answer is known to a state.</summary>
    /// <param name="state">The state before the operation.</param>
    /// <param name="input">The operation.</param>
    /// <param name="output">The answer the client got.</param>
    /// <param name="next">The state after the operation, when the answer is possible.</param>
    /// <returns>True when the operation applied to <paramref name="state"/> can give <paramref name="output"/>.</returns>
    bool TryStep(TState state, TInput input, TOutput output, out TState next);

    /// <summary>
    /// Gives the states an operation whose answer the client never learned may leave behind, when it
    /// took effect (the checker also considers that it never took effect).
    /// </summary>
    /// <param name="state">The state before the operation.</param>
    /// <param name="input">The operation.</param>
    /// <returns>Each state the operation may leave, for every answer it could have given.</returns>
    IEnumerable<TState> StepsWithUnknownOutput(TState state, TInput input);

    /// <summary>
    /// Tells whether an operation with this answer leaves every state it can be applied to as it was
    /// (a read; a compare-and-swap that did not swap). The checker places such an operation as soon
    /// as it fits, without trying it later too: from wherever else it fits it could move to the
    /// earliest such point without changing any answer. The default, false, is always safe.
    /// </summary>
    /// <param name="input">The operation.</param>
    /// <param name="output">The answer the client got.</param>
    /// <returns>True when the operation never changes the state.</returns>
    bool LeavesStateUnchanged(TInput input, TOutput output) => false;

    /// <summary>
    /// Gives the rank an operation with this answer takes among the ranked operations of any
    /// linearization, or 0 when it has none: the checker places ranked operations in increasing rank
    /// (a store's writes in the order of the versions it gave them, when it promises versions that
    /// increase per key). A rank only removes orders from the search, never the state's merging, so
    /// it can only shorten it. The default, 0 for every operation, places no such order.
    /// </summary>
    /// <param name="input">The operation.</param>
    /// <param name="output">The answer the client got.</param>
    /// <returns>The rank, or 0.</returns>
    long RankOf(TInput input, TOutput output) => 0;
}
