using CamCube.Services.KeyValue.Messages;

namespace CamCube.Services.KeyValue.Replication;

/// <summary>
/// The accepts a primary made for one replica in the current turn of its loop, sent together at the
/// end of the turn (or earlier, when the next would not fit the message), each with the task its
/// round awaits. Used on the node's loop only.
/// </summary>
internal sealed class PendingAccepts
{
    /// <summary>Gets the accepts, in the order they were made.</summary>
    public List<Accept> Accepts { get; private set; } = [];

    /// <summary>Gets the tasks waiting for each accept's answer, in the same order.</summary>
    public List<TaskCompletionSource<Accepted>> Waiting { get; private set; } = [];

    /// <summary>Gets or sets whether an accept to this replica went at once, alone, in the current turn (the next ones of the turn wait for its end).</summary>
    public bool SentThisTurn { get; set; }

    /// <summary>Gets the estimated bytes of the accepts' message.</summary>
    public int Bytes { get; private set; }

    /// <summary>Adds an accept of about <paramref name="bytes"/> bytes; the task completes with its answer.</summary>
    public Task<Accepted> Add(Accept accept, int bytes)
    {
        // Completed on the loop, where its waiters go on at once: a round's Task.WhenAll must not move to the thread pool (a test cube in virtual time is driven by one thread).
        var answer = new TaskCompletionSource<Accepted>();
        Accepts.Add(accept);
        Waiting.Add(answer);
        Bytes += bytes;
        return answer.Task;
    }

    /// <summary>Takes the accepts and their tasks out, leaving this empty for the next turn.</summary>
    public (List<Accept> Accepts, List<TaskCompletionSource<Accepted>> Waiting) Take()
    {
        var taken = (Accepts, Waiting);
        Accepts = [];
        Waiting = [];
        Bytes = 0;
        return taken;
    }
}
