namespace CamCube.Services.Reliable;

/// <summary>
/// An exchange the requester waits on: its request's bytes (kept to send again), its timeout, and
/// what to tell when it ends. Pooled by the endpoint; its buffer holds one packet's request.
/// </summary>
internal sealed class OpenExchange(int requestBytesMax)
{
    /// <summary>The copies whose send times are kept: a reply to a later one gives no round-trip sample.</summary>
    public const int CopiesTimed = 8;

    private readonly long[] _copySentAt = new long[CopiesTimed];

    /// <summary>Gets the request's bytes; the first <see cref="Length"/> are the request.</summary>
    public byte[] Request { get; } = new byte[requestBytesMax];

    public int Length { get; set; }

    /// <summary>Gets or sets the id the request carries now: <see cref="OriginalId"/>, or a new one for each move to another root.</summary>
    public ulong Id { get; set; }

    /// <summary>Gets or sets the id the caller was given (for <see cref="ReliableEndpoint.Cancel"/>, and in the reply).</summary>
    public ulong OriginalId { get; set; }

    /// <summary>Gets or sets the server asked: the one named, or the key's root in this server's view when the request left; every copy goes there.</summary>
    public Coordinate Peer { get; set; }

    public KeyCoordinate? Key { get; set; }

    /// <summary>Gets or sets the life of <see cref="Peer"/> this endpoint knew when it first asked it (0: none heard yet); every copy carries it, so a later life refuses the request its earlier life may have taken.</summary>
    public uint PeerLife { get; set; }

    /// <summary>Gets or sets how many times the request was sent to <see cref="Peer"/> (1 after the first; 0 while a move waits for the view to name another root).</summary>
    public uint Attempts { get; set; }

    /// <summary>Gets when the request's first copy to <see cref="Peer"/> left, a timestamp of the node's clock.</summary>
    public long FirstSentAt => _copySentAt[0];

    /// <summary>Gets or sets the timeout of the current attempt, in ticks: <see cref="BackoffBaseTicks"/>, doubled per attempt up to its bound.</summary>
    public long TimeoutTicks { get; set; }

    /// <summary>Gets or sets the peer's timeout when the first copy left, in ticks: until a busy notice came, <see cref="TimeoutTicks"/> grows to <see cref="ReliableOptions.ExchangeBackoffLimit"/> times it at most.</summary>
    public long BackoffBaseTicks { get; set; }

    /// <summary>Gets or sets whether a busy notice came from <see cref="Peer"/>: the request is at its handler, and the copies only ask for the reply.</summary>
    public bool HandlerBusy { get; set; }

    /// <summary>Gets or sets when the request is sent again if nothing came.</summary>
    public long RetransmitAt { get; set; }

    /// <summary>Gets or sets when the exchange last made progress (sent, or a busy notice came): it fails after <see cref="ReliableOptions.ProgressTimeout"/> without.</summary>
    public long LastProgress { get; set; }

    public ExchangeCompletion? Completion { get; set; }

    public object? State { get; set; }

    /// <summary>Gets the copy number the request's next packet carries: <see cref="Attempts"/>, at most <see cref="ReliableWire.CopyMax"/>.</summary>
    public byte Copy => (byte)Math.Min(Attempts, ReliableWire.CopyMax);

    /// <summary>Notes that copy <see cref="Attempts"/> left at <paramref name="now"/>.</summary>
    public void NoteCopySent(long now)
    {
        if (Attempts is >= 1 and <= CopiesTimed)
        {
            _copySentAt[Attempts - 1] = now;
        }
    }

    /// <summary>Gets when copy <paramref name="copy"/> left, if it is one of this peer's copies and its time is kept.</summary>
    public bool TryGetCopySentAt(byte copy, out long sentAt)
    {
        var known = copy >= 1 && copy <= Math.Min(Attempts, CopiesTimed);
        sentAt = known ? _copySentAt[copy - 1] : 0;
        return known;
    }

    /// <summary>Forgets the ended exchange's caller, before the object goes back to the pool.</summary>
    public void Clear()
    {
        Completion = null;
        State = null;
        Key = null;
        Length = 0;
    }
}
