using ProtoBuf;

namespace CamCube.Messaging;

/// <summary>A request of <see cref="MessagingServiceBase"/>'s task API, waiting for a reply of type <typeparamref name="TReply"/>.</summary>
/// <remarks>
/// The task completes on the node's event loop, inside the upcall that brought the reply or the
/// timer that ended it, so code after an <c>await</c> runs on the loop and may use the node.
/// </remarks>
internal sealed class PendingRequest<TReply> : PendingReply
{
    private readonly TaskCompletionSource<TReply> _completion = new();

    /// <summary>Gets the caller's task.</summary>
    public Task<TReply> Task => _completion.Task;

    /// <inheritdoc/>
    protected internal override void OnReply(ReadOnlySpan<byte> body)
    {
        TReply reply;
        try
        {
            reply = Serializer.Deserialize<TReply>(body);
        }
        catch (ProtoException ex)
        {
            _completion.TrySetException(new RequestFailedException(RequestFailure.HandlerFault, $"The reply to {Description} could not be decoded as {typeof(TReply).Name}: {ex.Message}"));
            return;
        }

        _completion.TrySetResult(reply);
    }

    /// <inheritdoc/>
    protected internal override void OnFailed(RequestFailedException error) => _completion.TrySetException(error);
}
