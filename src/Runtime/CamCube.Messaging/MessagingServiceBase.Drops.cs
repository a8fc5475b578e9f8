using CamCube.Services;

namespace CamCube.Messaging;

/// <summary>Drop notices: a request the network dropped on the way fails at once, not at its timeout.</summary>
public abstract partial class MessagingServiceBase : IDropObserver
{
    /// <summary>
    /// A packet of this service sent from here was dropped on the way: if it was a request still
    /// waiting for its reply, the request fails now with <see cref="RequestFailure.Unreachable"/>
    /// (unreachable, no route) or <see cref="RequestFailure.Dropped"/> (hop limit, queue time limit).
    /// </summary>
    /// <param name="drop">What was dropped, where and why.</param>
    public void OnDropped(in DroppedPacket drop)
    {
        if (_reliable is { } reliable && reliable.OnDropped(drop))
        {
            return;
        }

        if (!Envelope.TryRead(drop.PayloadPrefix, out var envelope) || envelope.Kind != EnvelopeKind.Request || !Take(envelope.RequestId, out var pending))
        {
            return;
        }

        var reason = drop.Reason is DropReason.Unreachable or DropReason.NoRoute ? RequestFailure.Unreachable : RequestFailure.Dropped;
        pending.OnFailed(new RequestFailedException(reason, $"{pending.Description} was dropped at {drop.DroppedAt} after {drop.HopCount} hops ({drop.Reason})."));
    }
}
