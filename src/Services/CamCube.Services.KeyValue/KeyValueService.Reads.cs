using System.Text;
using CamCube.Messaging;
using CamCube.Services.KeyValue.Messages;

namespace CamCube.Services.KeyValue;

/// <summary>
/// The asking side of a get: posted to the loop with its <see cref="StoreGet"/> (no closure, no task),
/// asked of the key's primary as one typed request whose reply is read in place, and answered in the
/// upcall that brings the reply. A first answer that does not settle it (not the primary yet, a drop
/// on the way, no answer within <see cref="KeyValueServiceOptions.ReadAttemptTimeout"/>) hands the get to the calls'
/// retry loop, within the same time (<see cref="KeyValueServiceOptions.RequestTimeout"/>).
/// </summary>
public sealed partial class KeyValueService : IReusableGets
{
    private static readonly Action<object?> s_startGet = static state => ((StoreGet)state!).Store!.StartGet((StoreGet)state!);
    private static readonly Action<object?> s_askAgain = static state => _ = ((StoreGet)state!).Store!.AskAgainAsync((StoreGet)state!);

    /// <inheritdoc/>
    bool IReusableGets.TryStartGet(StoreGet get)
    {
        get.Store = this;
        return TryPostOnLoop(s_startGet, get);
    }

    /// <summary>Reads <paramref name="key"/> for <see cref="GetAsync"/>.</summary>
    private Task<VersionedValue?> StartGetAsync(Key key, CancellationToken cancellationToken)
    {
        var call = new GetCall();
        call.Get.Prepare(key);
        if (!((IReusableGets)this).TryStartGet(call.Get))
        {
            call.Failed(new KeyValueStoreException(KeyValueFailure.Unavailable, $"The {KeyValueOperation.Get} could not start: the store is not on a running node, or its node's queue is full."));
        }

        return cancellationToken.CanBeCanceled ? call.Task.WaitAsync(cancellationToken) : call.Task;
    }

    private void StartGet(StoreGet get)
    {
        if (TryAnswerFromLease(get))
        {
            return;
        }

        get.StartedAt = Node.TimeProvider.GetTimestamp();
        // A first attempt as long as any read's (a lost request or reply is asked again, within RequestTimeout).
        var attempt = _options.ReadAttemptTimeout < _options.RequestTimeout ? _options.ReadAttemptTimeout : _options.RequestTimeout;
        if (Request(Node.KeySpace.KeyCoordinateOf(get.Key), get.Request, attempt, get) is { } refused)
        {
            OnGetFailed(get, refused);
        }
    }

    /// <summary>The primary answered: a served get ends here; what else it may say is decided as <see cref="CallOnLoopAsync"/> decides it.</summary>
    internal void OnGetReply(StoreGet get, ReadOnlySpan<byte> body)
    {
        if (!ClientReplyView.TryRead(body, out var reply))
        {
            get.Outcome.Failed(new KeyValueStoreException(KeyValueFailure.Rejected, $"The reply to the {KeyValueOperation.Get} of {get.Key} is not a {nameof(ClientReply)}."));
            return;
        }

        switch (reply.Status)
        {
            case ReplyStatus.Served when reply.Found:
                TakeFrontEndLease(get, reply);
                get.Outcome.Found(reply.Version, reply.Value);
                return;
            case ReplyStatus.Served:
                TakeFrontEndLease(get, reply);
                get.Outcome.Missing();
                return;
            case ReplyStatus.Rejected:
                get.Outcome.Failed(new KeyValueStoreException(KeyValueFailure.Rejected, $"The primary of {get.Key} refused the {KeyValueOperation.Get}: {Encoding.UTF8.GetString(reply.Reason)}"));
                return;
            case ReplyStatus.Indeterminate:
                get.Outcome.Failed(new KeyValueStoreException(KeyValueFailure.TimedOut, $"The {KeyValueOperation.Get} of {get.Key} reached some replicas but not every one: it may or may not take effect."));
                return;
            default:
                AskAgain(get);
                return;
        }
    }

    /// <summary>The request failed: asked again if a read may be, else the get fails as a call would.</summary>
    internal void OnGetFailed(StoreGet get, RequestFailedException error)
    {
        if (MayAskAgain(error, get.Request))
        {
            AskAgain(get);
            return;
        }

        get.Outcome.Failed(Failure(error, KeyValueOperation.Get, get.Key, null));
    }

    /// <summary>Hands the get to the retry loop in a later turn of the loop, whose awaits resume there.</summary>
    private void AskAgain(StoreGet get)
    {
        if (!Node.TryPost(s_askAgain, get))
        {
            get.Outcome.Failed(new KeyValueStoreException(KeyValueFailure.Unavailable, $"The {KeyValueOperation.Get} of {get.Key} could not be asked again: the node's queue is full."));
        }
    }

    private async Task AskAgainAsync(StoreGet get)
    {
        ClientReply reply;
        try
        {
            await DelayAsync(_options.RetryDelay).ConfigureAwait(true);
            reply = await CallOnLoopAsync(get.Request, get.StartedAt).ConfigureAwait(true);
        }
#pragma warning disable CA1031 // Whatever failed is the caller's, through its outcome.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            get.Outcome.Failed(ex);
            return;
        }

        if (reply.Found)
        {
            get.Outcome.Found(reply.Version, reply.Value);
        }
        else
        {
            get.Outcome.Missing();
        }
    }
}
