namespace CamCube.Messaging;

/// <summary>Why a typed request or message failed; the <see cref="RequestFailedException.Reason"/> of every failure.</summary>
public enum RequestFailure
{
    /// <summary>No reply came within the request's timeout (the request or its reply may have been lost, or the handler is slow).</summary>
    TimedOut = 0,

    /// <summary>The request was dropped because its destination is unreachable: at once by this node, or on the way by a node that said so.</summary>
    Unreachable = 1,

    /// <summary>The node dropped the request at once: this service's send queue is full.</summary>
    QueueFull = 2,

    /// <summary>The node refused the request at once (the service or the node is stopping, or the destination is outside the torus).</summary>
    Refused = 3,

    /// <summary>The encoded message is larger than one packet carries.</summary>
    MessageTooLarge = 4,

    /// <summary>The receiving service has no handler for the request's type.</summary>
    NoHandler = 5,

    /// <summary>The receiving service could not decode the request, or its handler threw; the message says which and why.</summary>
    HandlerFault = 6,

    /// <summary>The service was deregistered or its node stopped before the reply came.</summary>
    Shutdown = 7,

    /// <summary>A node on the way dropped the request and said so: it ran out of hops or waited past its queue's time limit.</summary>
    Dropped = 8,

    /// <summary>
    /// Reliable mode: the server the request to a key went to became unreachable before it answered,
    /// after the request may have reached it. The handler may or may not have run; the transport
    /// never sends the request to a second server, so asking again is safe only for a request the
    /// service makes safe to repeat.
    /// </summary>
    OutcomeUnknown = 9,
}
