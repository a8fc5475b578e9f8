using CamCube.Messaging;
using CamCube.Services.KeyValue.Messages;
using CamCube.Services.KeyValue.Replication;

namespace CamCube.Services.KeyValue;

/// <summary>
/// Fewer messages per write: the first accept a primary makes for one replica in a turn of its loop
/// goes at once, as a plain <see cref="Accept"/> (a lone write waits for nothing), and the later ones
/// of the turn travel together in one <see cref="AcceptBatch"/> at its end; the replica commits a
/// batch's writes together and answers them in one <see cref="AcceptedBatch"/>.
/// </summary>
public sealed partial class KeyValueService
{
    private readonly Dictionary<Coordinate, PendingAccepts> _outbox = [];
    private bool _acceptsPosted;
    private int _acceptBytesMax;

    /// <summary>Sends <paramref name="accept"/> to <paramref name="replica"/> at once if it is the turn's first to it, else with the turn's others at its end; completes with its answer, or fails as the request did.</summary>
    private Task<Accepted> SendAcceptAsync(Coordinate replica, Accept accept) =>
        Delivery == MessageDelivery.Reliable ? SendAcceptOnceMoreAsync(replica, accept) : QueueAcceptAsync(replica, accept);

    /// <summary>
    /// On the reliable transport an accept that timed out was resent for a whole
    /// <see cref="KeyValueServiceOptions.ReplicationTimeout"/> (a lossy path, a peer not yet timed),
    /// and one whose replica became unreachable may meet it again as views settle (a link that
    /// flapped on a starved host): it is sent once more, after the replica is reachable again (or a
    /// <see cref="KeyValueServiceOptions.ReplicationTimeout"/> passed), and waits the rest of the
    /// client's time (<see cref="AcceptSentAgainTimeout"/>) before the write is called indeterminate.
    /// A replica that left the key's set meanwhile (it died) is not waited for: the
    /// round fails at once and the primary finishes the write on the new set. An accept is
    /// idempotent at a replica (the same ballot and version are kept once).
    /// </summary>
    private async Task<Accepted> SendAcceptOnceMoreAsync(Coordinate replica, Accept accept)
    {
        try
        {
            return await QueueAcceptAsync(replica, accept).ConfigureAwait(true);
        }
        catch (RequestFailedException ex) when (ex.Reason is RequestFailure.TimedOut or RequestFailure.Unreachable)
        {
            if (ex.Reason == RequestFailure.Unreachable && !await UntilReachableAsync(replica, Node.KeySpace.KeyCoordinateOf(Key.FromBytes(accept.Key)), _options.ReplicationTimeout).ConfigureAwait(true))
            {
                throw;
            }

            Statistics.AcceptsSentAgain++;
            return await RequestServerAsync<Accept, Accepted>(replica, accept, AcceptSentAgainTimeout).ConfigureAwait(true);
        }
    }

    /// <summary>
    /// How long an accept sent again waits: what is left of the client's
    /// <see cref="KeyValueServiceOptions.RequestTimeout"/> after the first
    /// <see cref="KeyValueServiceOptions.ReplicationTimeout"/>, and at least one more of those. A
    /// replica still in the key's set, its links up, that answers late (a process starved of a core,
    /// a commit held up) has the write acknowledged while the client still waits, not called undecided.
    /// </summary>
    private TimeSpan AcceptSentAgainTimeout
    {
        get
        {
            var rest = _options.RequestTimeout - _options.ReplicationTimeout;
            return rest > _options.ReplicationTimeout ? rest : _options.ReplicationTimeout;
        }
    }

    /// <summary>
    /// Waits, a <see cref="KeyValueServiceOptions.RetryDelay"/> at a time, until this node's view
    /// reaches <paramref name="server"/> or <paramref name="limit"/> passed; false when the view
    /// dropped the server from the replica set of the key at <paramref name="key"/> instead.
    /// </summary>
    private async Task<bool> UntilReachableAsync(Coordinate server, KeyCoordinate key, TimeSpan limit)
    {
        var start = Now;
        while (!Node.Reachability.IsReachable(server) && Node.TimeProvider.GetElapsedTime(start) < limit)
        {
            if (Array.IndexOf(ReplicaSet(key), server) < 0)
            {
                return false;
            }

            await DelayAsync(_options.RetryDelay).ConfigureAwait(true);
        }

        return true;
    }

    private Task<Accepted> QueueAcceptAsync(Coordinate replica, Accept accept)
    {
        if (!_outbox.TryGetValue(replica, out var pending))
        {
            pending = new PendingAccepts();
            _outbox.Add(replica, pending);
        }

        var bytes = accept.Value.Length + (sizeof(ulong) * accept.SupersededWriteIds.Count) + MessageOverheadBytes;
        if (pending.Accepts.Count > 0 && pending.Bytes + bytes > _acceptBytesMax)
        {
            SendPending(replica, pending);
        }

        var answer = pending.Add(accept, bytes);
        if (pending.Accepts.Count == 1 && !pending.SentThisTurn)
        {
            // The first accept of the turn to this replica goes at once; the later ones of the turn wait for the turn's end, together.
            pending.SentThisTurn = true;
            SendPending(replica, pending);
        }

        if (!_acceptsPosted)
        {
            _acceptsPosted = Node.TryPost(static state => ((KeyValueService)state!).SendAllPending(), this);
            if (!_acceptsPosted)
            {
                SendAllPending();
            }
        }

        return answer;
    }

    private void SendAllPending()
    {
        _acceptsPosted = false;
        foreach (var (replica, pending) in _outbox)
        {
            pending.SentThisTurn = false;
            if (pending.Accepts.Count > 0)
            {
                SendPending(replica, pending);
            }
        }
    }

    private void SendPending(Coordinate replica, PendingAccepts pending)
    {
        var (accepts, waiting) = pending.Take();
        Statistics.AcceptsSent += accepts.Count;
        Statistics.AcceptMessagesSent++;
        _ = accepts.Count == 1
            ? ForwardAsync(RequestServerAsync<Accept, Accepted>(replica, accepts[0], _options.ReplicationTimeout), waiting[0])
            : ForwardAsync(RequestServerAsync<AcceptBatch, AcceptedBatch>(replica, new AcceptBatch { Accepts = accepts }, _options.ReplicationTimeout), waiting, replica);
    }

    private static async Task ForwardAsync(Task<Accepted> request, TaskCompletionSource<Accepted> waiting)
    {
        try
        {
            waiting.TrySetResult(await request.ConfigureAwait(true));
        }
#pragma warning disable CA1031 // Whatever the request failed with is the waiting round's: it must never wait forever.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            waiting.TrySetException(ex);
        }
    }

    private static async Task ForwardAsync(Task<AcceptedBatch> request, List<TaskCompletionSource<Accepted>> waiting, Coordinate replica)
    {
        Exception? failure = null;
        try
        {
            var answers = (await request.ConfigureAwait(true)).Answers;
            if (answers.Count == waiting.Count)
            {
                for (var i = 0; i < waiting.Count; i++)
                {
                    waiting[i].TrySetResult(answers[i]);
                }

                return;
            }

            failure = new RequestFailedException(RequestFailure.HandlerFault, $"{replica} answered {answers.Count} of {waiting.Count} accepts.");
        }
#pragma warning disable CA1031 // As above: every waiting round hears of the failure.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            failure = ex;
        }

        foreach (var wait in waiting)
        {
            wait.TrySetException(failure);
        }
    }

    /// <summary>Handles each accept of the batch as if it came alone; their writes share one commit, and one reply answers all once they are on disk.</summary>
    private async Task<AcceptedBatch> OnAcceptBatchAsync(AcceptBatch batch, Coordinate source)
    {
        var answers = new Task<Accepted>[batch.Accepts.Count];
        Commits.Hold();
        try
        {
            for (var i = 0; i < answers.Length; i++)
            {
                answers[i] = OnAcceptAsync(batch.Accepts[i], source);
            }
        }
        finally
        {
            Commits.Release();
        }

        return new AcceptedBatch { Answers = [.. await Task.WhenAll(answers).ConfigureAwait(true)] };
    }
}
