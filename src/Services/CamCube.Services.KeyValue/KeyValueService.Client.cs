using CamCube.Messaging;
using CamCube.Services.KeyValue.Messages;
using CamCube.Services.KeyValue.Replication;
using CamCube.Services.Reliable;

namespace CamCube.Services.KeyValue;

/// <summary>The asking side: a call routed to its key's primary, asked again while views converge, failures told as <see cref="KeyValueStoreException"/>.</summary>
public sealed partial class KeyValueService : IReusableSets
{
    private static readonly Action<object?> s_startSet = static state => _ = ((StoreSet)state!).Store!.RunSetAsync((StoreSet)state!);
    private ulong _lastWriteId;

    /// <summary>
    /// Runs the call on the node's loop and completes the caller's task there (a test cube in
    /// virtual time sees it at once; the caller's continuations run elsewhere); it fails only with
    /// <see cref="KeyValueStoreException"/>.
    /// </summary>
    private Task<T> CallAsync<T>(ClientRequest request, Func<ClientReply, T> map, CancellationToken cancellationToken)
    {
        var call = new ClientCall<T>(this, request, map);
        if (!TryPostOnLoop(ClientCall<T>.Start, call))
        {
            call.TrySetException(new KeyValueStoreException(KeyValueFailure.Unavailable, $"The {request.Operation} could not start: the store is not on a running node, or its node's queue is full."));
        }

        return cancellationToken.CanBeCanceled ? call.Task.WaitAsync(cancellationToken) : call.Task;
    }

    /// <inheritdoc/>
    bool IReusableSets.TryStartSet(StoreSet set)
    {
        set.Store = this;
        return TryPostOnLoop(s_startSet, set);
    }

    /// <summary>Runs a <see cref="StoreSet"/> on the node's loop as <see cref="PutAsync"/> runs a put, and tells its outcome there.</summary>
    private async Task RunSetAsync(StoreSet set)
    {
        WriteOutcome outcome;
        try
        {
            var reply = await CallOnLoopAsync(set.Request).ConfigureAwait(true);
            outcome = new WriteOutcome(reply.WriteStatus, reply.Version);
        }
#pragma warning disable CA1031 // Whatever failed is the caller's, through its outcome.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            set.Outcome.Failed(ex);
            return;
        }

        set.Outcome.Written(outcome);
    }

    /// <summary>Posts <paramref name="action"/> to the node's loop; false when the queue is full or the service is on no node (yet, or any more).</summary>
    private bool TryPostOnLoop(Action<object?> action, object state)
    {
        try
        {
            return Node.TryPost(action, state);
        }
        catch (InvalidOperationException)
        {
            // Not registered on a node (yet, or any more).
            return false;
        }
    }

    /// <summary>
    /// Asks the key's primary until it serves the call or the call's time, from
    /// <paramref name="startedAt"/> (now if null), is up; runs on the node's loop. A read waits at most
    /// <see cref="KeyValueServiceOptions.ReadAttemptTimeout"/> per attempt and asks again after a lost
    /// request or reply; a write has one attempt for the whole time.
    /// </summary>
    internal async Task<ClientReply> CallOnLoopAsync(ClientRequest request, long? startedAt = null)
    {
        var key = Key.FromBytes(request.Key);
        if (request.Operation != KeyValueOperation.Get && request.WriteId == 0)
        {
            request.WriteId = NextWriteId();
        }

        if (request.Operation != KeyValueOperation.Get && FrontEndLeasesOn)
        {
            var askedAt = Now;
            BeginOwnWrite(key, request);
            ClientReply? reply = null;
            try
            {
                reply = await AskLoggedAsync(key, request, startedAt).ConfigureAwait(true);
                return reply;
            }
            finally
            {
                EndOwnWrite(key, request, reply, askedAt);
            }
        }

        return await AskLoggedAsync(key, request, startedAt).ConfigureAwait(true);
    }

    /// <summary>Asks until served (<see cref="AskUntilServedAsync"/>); a write that failed with its outcome unknown is logged with why, which a client's reply line does not carry.</summary>
    private async Task<ClientReply> AskLoggedAsync(Key key, ClientRequest request, long? startedAt)
    {
        try
        {
            return await AskUntilServedAsync(key, request, startedAt).ConfigureAwait(true);
        }
        catch (KeyValueStoreException ex) when (ex.Reason == KeyValueFailure.TimedOut && request.Operation != KeyValueOperation.Get)
        {
            Log.CallUndecided(Node.Logger, request.Operation, key, ex.InnerException is null ? ex.Message : $"{ex.Message} ({ex.InnerException.Message})");
            throw;
        }
    }

    private async Task<ClientReply> AskUntilServedAsync(Key key, ClientRequest request, long? startedAt)
    {
        var clock = Node.TimeProvider;
        var start = startedAt ?? clock.GetTimestamp();
        var isRead = request.Operation == KeyValueOperation.Get;
        var timedOut = false;
        var mayHaveTakenEffect = false;
        var lastAnswer = "no answer yet";
        var attempts = 0;
        while (true)
        {
            request.FirstAttempt = !isRead && attempts++ == 0;
            var remaining = _options.RequestTimeout - clock.GetElapsedTime(start);
            if (remaining <= TimeSpan.Zero)
            {
                throw mayHaveTakenEffect
                    ? new KeyValueStoreException(KeyValueFailure.TimedOut, $"The {request.Operation} of {key} reached a primary that became unreachable before it answered, and no primary answered it again within {_options.RequestTimeout.TotalMilliseconds:0} ms ({lastAnswer}): it may or may not have taken effect.")
                    : timedOut
                    ? new KeyValueStoreException(KeyValueFailure.TimedOut, $"No answer to the {request.Operation} of {key} within {_options.RequestTimeout.TotalMilliseconds:0} ms ({lastAnswer}).")
                    : new KeyValueStoreException(KeyValueFailure.Unavailable, $"The primary of {key} could not serve the {request.Operation} within {_options.RequestTimeout.TotalMilliseconds:0} ms ({lastAnswer}).");
            }

            ClientReply reply;
            try
            {
                var attempt = isRead && _options.ReadAttemptTimeout < remaining ? _options.ReadAttemptTimeout : remaining;
                reply = await RequestAsync<ClientRequest, ClientReply>(key, request, attempt).ConfigureAwait(true);
            }
            catch (RequestFailedException ex) when (MayAskAgain(ex, request))
            {
                // The request never reached a primary, or it is a read: asking again is safe.
                timedOut = ex.Reason == RequestFailure.TimedOut;
                mayHaveTakenEffect |= ex.Reason == RequestFailure.OutcomeUnknown && request.Operation != KeyValueOperation.Get;
                lastAnswer = ex.Message;
                if (!timedOut)
                {
                    await DelayAsync(_options.RetryDelay).ConfigureAwait(true);
                }

                continue;
            }
            catch (RequestFailedException ex)
            {
                throw Failure(ex, request.Operation, key, attempts == 1 ? null : $"attempt {attempts}; before it, {lastAnswer}");
            }

            switch (reply.Status)
            {
                case ReplyStatus.Served:
                    return reply;
                case ReplyStatus.Rejected:
                    throw new KeyValueStoreException(KeyValueFailure.Rejected, $"The primary of {key} refused the {request.Operation}: {reply.Reason}");
                case ReplyStatus.Indeterminate:
                    throw new KeyValueStoreException(KeyValueFailure.TimedOut, $"The {request.Operation} of {key} reached some replicas but not every one: it may or may not take effect.");
                case ReplyStatus.Unsettled:
                    // Kept at its primary, not yet settled with every replica: asked again under its id.
                    mayHaveTakenEffect = true;
                    lastAnswer = "the primary kept the write but could not yet settle it with every replica";
                    await DelayAsync(_options.RetryDelay).ConfigureAwait(true);
                    break;
                default:
                    timedOut = false;
                    lastAnswer = string.IsNullOrEmpty(reply.Reason) ? $"the primary answered {reply.Status}" : $"the primary answered {reply.Status}: {reply.Reason}";
                    await DelayAsync(_options.RetryDelay).ConfigureAwait(true);
                    break;
            }
        }
    }

    /// <summary>
    /// A read may be asked again after any failure but a stop, a refusal or a fault of the request
    /// itself, a lost request or reply included (its attempt timed out). A write when it is known
    /// not to have reached a primary (best-effort delivery's drop notice, or a refusal at once), and,
    /// on the reliable transport, when the primary it went to became unreachable before it answered:
    /// it is asked again under the same <see cref="ClientRequest.WriteId"/>, and a primary that knows it
    /// took effect answers with its version (<see cref="RecentWrites"/>). It is never asked again
    /// after a timeout: it may still be running, and on the reliable transport the exchange already
    /// resends it until the primary answers.
    /// </summary>
    private bool MayAskAgain(RequestFailedException ex, ClientRequest request) =>
        request.Operation == KeyValueOperation.Get
            ? ex.Reason is not (RequestFailure.Shutdown or RequestFailure.Refused or RequestFailure.MessageTooLarge or RequestFailure.NoHandler or RequestFailure.HandlerFault)
            : Delivery == MessageDelivery.BestEffort
                ? ex.Reason is RequestFailure.Unreachable or RequestFailure.Dropped or RequestFailure.QueueFull
                : ex.Reason is RequestFailure.Unreachable or RequestFailure.OutcomeUnknown or RequestFailure.QueueFull;

    /// <summary>A new write's id: ids start at a point drawn for this life of the node (its seeded random mixed with the time), so a restarted front-end never reuses one.</summary>
    private ulong NextWriteId()
    {
        if (_lastWriteId == 0)
        {
            _lastWriteId = NodeLife.Mix((ulong)Node.Random.NextInt64(), Node.TimeProvider.GetUtcNow().UtcTicks) | 1;
        }

        return ++_lastWriteId == 0 ? ++_lastWriteId : _lastWriteId;
    }

    /// <summary>The failure of a call whose last attempt failed for good; <paramref name="earlier"/> says what the attempts before it were answered, if there were any.</summary>
    private static KeyValueStoreException Failure(RequestFailedException ex, KeyValueOperation operation, Key key, string? earlier) => ex.Reason switch
    {
        RequestFailure.TimedOut => new(KeyValueFailure.TimedOut, $"No answer to the {operation} of {key}{(earlier is null ? "" : $" ({earlier})")}; a write may or may not have taken effect.", ex),
        RequestFailure.Shutdown or RequestFailure.Refused => new(KeyValueFailure.Shutdown, $"The store's node stopped before the {operation} of {key} completed.", ex),
        _ => new(KeyValueFailure.Rejected, $"The {operation} of {key} failed: {ex.Message}", ex),
    };
}
