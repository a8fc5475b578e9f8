namespace CamCube.Messaging;

/// <summary>A request waiting for its reply: completes its caller's task once, with the reply or a failure.</summary>
internal abstract class PendingRequest(string description)
{
    /// <summary>Gets what the request was and where it went, for the messages of its failures.</summary>
    public string Description { get; } = description;

    /// <summary>Gets or sets the request's id (the reliable mode's send completion finds the request by it).</summary>
    public ulong RequestId { get; set; }

    /// <summary>Gets or sets the reliable mode's one-packet exchange that carries the request, or 0 if it travels on a flow or in a packet of its own.</summary>
    public ulong ExchangeId { get; set; }

    /// <summary>Gets or sets the timer that fails the request when its timeout passes.</summary>
    public ITimer? Timeout { get; set; }

    /// <summary>Decodes the reply and completes the caller's task with it.</summary>
    public abstract void Complete(ReadOnlySpan<byte> body);

    /// <summary>Fails the caller's task.</summary>
    public abstract void Fail(RequestFailedException error);
}
