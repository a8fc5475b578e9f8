namespace CamCube.Runtime.Posting;

/// <summary>
/// The synchronization context of work posted to a service: a continuation after an <c>await</c>
/// (without <c>ConfigureAwait(false)</c>) is posted back to the service's mailbox and runs on the
/// node's loop. Once the service has left its node, continuations run on the thread pool, so
/// that awaiting callers still finish (with the service's errors).
/// </summary>
internal sealed class LoopSynchronizationContext(ServiceMailbox mailbox) : SynchronizationContext
{
    /// <inheritdoc/>
    public override void Post(SendOrPostCallback d, object? state)
    {
        ArgumentNullException.ThrowIfNull(d);
        if (!mailbox.TryPost(d, state, bounded: false))
        {
            base.Post(d, state);
        }
    }

    /// <inheritdoc/>
    public override SynchronizationContext CreateCopy() => this;
}
