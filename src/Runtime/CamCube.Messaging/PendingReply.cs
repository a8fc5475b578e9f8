namespace CamCube.Messaging;

/// <summary>
/// The asking side of one typed request at a time, which its owner keeps and sends again and again
/// (no task and no allocation per request): <see cref="MessagingServiceBase"/>'s <c>Request</c> sends a
/// request with it, and the service later tells it exactly once, on the node's loop, how the request
/// ended: <see cref="OnReply"/> with the reply's bytes, or <see cref="OnFailed"/>. By then it waits for
/// nothing, so it may carry the owner's next request from inside either call.
/// </summary>
public abstract class PendingReply
{
    /// <summary>Gets whether a request sent with it waits for its reply.</summary>
    public bool IsWaiting => RequestId != 0;

    /// <summary>Gets or sets the id of the request it waits for, 0 when it waits for none.</summary>
    internal ulong RequestId { get; set; }

    /// <summary>Gets or sets the reliable mode's one-packet exchange that carries the request, or 0 if it travels on a flow or in a packet of its own.</summary>
    internal ulong ExchangeId { get; set; }

    /// <summary>Gets or sets when the request times out, a timestamp of the node's clock.</summary>
    internal long Deadline { get; set; }

    /// <summary>Gets or sets the request's timeout, for the message of its failure.</summary>
    internal TimeSpan Timeout { get; set; }

    /// <summary>Gets or sets the request's type, for the messages of its failures.</summary>
    internal Type RequestType { get; set; } = typeof(object);

    /// <summary>Gets or sets where the request went: a key coordinate, or a server (with w 0) when <see cref="ToServer"/>.</summary>
    internal KeyCoordinate Destination { get; set; }

    /// <summary>Gets or sets whether the request went to a server rather than to a key's root.</summary>
    internal bool ToServer { get; set; }

    /// <summary>Gets what the request was and where it went, for the messages of its failures (made only when one happens).</summary>
    internal string Description => $"{RequestType.Name} to {(ToServer ? Destination.Home.ToString() : Destination.ToString())}";

    /// <summary>The reply came: decode it (the bytes are valid only during the call). Runs on the node's loop.</summary>
    /// <param name="body">The reply's protobuf-net encoding.</param>
    protected internal abstract void OnReply(ReadOnlySpan<byte> body);

    /// <summary>The request failed: <see cref="RequestFailedException.Reason"/> says why. Runs on the node's loop.</summary>
    /// <param name="error">Why, and where.</param>
    protected internal abstract void OnFailed(RequestFailedException error);
}
