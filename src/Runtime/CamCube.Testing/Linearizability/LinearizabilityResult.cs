namespace CamCube.Testing.Linearizability;

/// <summary>The checker's verdict on one history (or one key's part of it), with what explains it.</summary>
/// <typeparam name="TInput">An operation and its arguments.</typeparam>
/// <typeparam name="TOutput">An operation's answer.</typeparam>
/// <param name="Verdict">Whether the history is linearizable.</param>
/// <param name="Order">For a linearizable history, the operations in an order that explains every answer (operations that never took effect are left out).</param>
/// <param name="Stuck">
/// For a history that is not linearizable, the completed operation the deepest search could not
/// place before it had to return (its answer is impossible in every order tried); otherwise null.
/// </param>
/// <param name="StatesExplored">How many (operations placed, state) pairs the search visited.</param>
public sealed record LinearizabilityResult<TInput, TOutput>(
    LinearizabilityVerdict Verdict,
    IReadOnlyList<HistoryOperation<TInput, TOutput>> Order,
    HistoryOperation<TInput, TOutput>? Stuck,
    long StatesExplored)
{
    /// <summary>Gets a one-line account of the verdict, for test failure messages.</summary>
    public override string ToString() => Verdict switch
    {
        LinearizabilityVerdict.Linearizable => $"linearizable ({Order.Count} operations placed, {StatesExplored} states explored)",
        LinearizabilityVerdict.NotLinearizable => $"not linearizable: no order explains {Stuck} ({StatesExplored} states explored)",
        _ => $"inconclusive after {StatesExplored} states",
    };
}
