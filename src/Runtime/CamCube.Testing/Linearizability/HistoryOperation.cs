namespace CamCube.Testing.Linearizability;

/// <summary>
/// One operation of a recorded history: what a client asked, what it was answered, and when,
/// on one clock shared by every client of the history (the simulator's virtual time, or one
/// monotonic clock on one host).
/// </summary>
/// <typeparam name="TInput">What the client asked (the operation and its arguments).</typeparam>
/// <typeparam name="TOutput">What the client was answered.</typeparam>
/// <param name="ClientId">The client that issued the operation; a client issues one operation at a time.</param>
/// <param name="Input">The operation and its arguments.</param>
/// <param name="Output">The answer; ignored when <paramref name="Completed"/> is false.</param>
/// <param name="InvokedAt">When the client issued the operation, in ticks of the history's clock.</param>
/// <param name="ReturnedAt">When the answer arrived, in the same ticks; ignored when <paramref name="Completed"/> is false.</param>
/// <param name="Completed">
/// False when the client never learned the outcome (it timed out, or its server failed): the
/// operation may have taken effect at any time after <paramref name="InvokedAt"/>, or never.
/// </param>
public sealed record HistoryOperation<TInput, TOutput>(
    int ClientId,
    TInput Input,
    TOutput Output,
    long InvokedAt,
    long ReturnedAt,
    bool Completed = true);
