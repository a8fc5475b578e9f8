namespace CamCube.Services.Reliable;

/// <summary>
/// A request between its issuer and its answer, for a service that sends its own request packets
/// and resends them until answered (the cache; the key-value store could be next): queued, then in
/// flight on the node's loop. The issuer sets <see cref="Call"/> and hands the request to the
/// service; the loop reads the call only until it has sent it (so the call may borrow memory the
/// issuer keeps valid until the answer), takes the answer's value fragment by fragment
/// (<see cref="AddResponseChunk"/>), and calls <see cref="Complete"/> once, after which it never
/// touches the request. <see cref="ReusableRequest{TCall, TStatus}"/> is awaited without allocating;
/// <see cref="TaskRequest{TCall, TStatus, TResult}"/> through a task.
/// </summary>
/// <typeparam name="TCall">What the service is asked: its operation and arguments.</typeparam>
/// <typeparam name="TStatus">The outcome the service answers with.</typeparam>
public abstract class OutstandingRequest<TCall, TStatus>
{
    private readonly FragmentTracker _fragments = new();
    private bool _responseStarted;

    /// <summary>Gets or sets what is asked (borrowed memory in it stays valid until the answer).</summary>
    public TCall Call { get; set; } = default!;

    /// <summary>Gets or sets the request's id among the service's requests in flight from this node, set by the service on the loop.</summary>
    public uint RequestId { get; set; }

    /// <summary>Gets or sets when the request is next sent again if no answer came, a timestamp of the node's clock.</summary>
    public long RetransmitAt { get; set; }

    /// <summary>Gets or sets how many times the request was sent again.</summary>
    public int Retransmissions { get; set; }

    /// <summary>Gets or sets when the request times out, a timestamp of the node's clock.</summary>
    public long Deadline { get; set; }

    /// <summary>
    /// Gets or sets the server every copy of the request goes to, for a request pinned to one server
    /// (so that no two servers run it), or null until it is chosen (the service picks it when it sends).
    /// </summary>
    public Coordinate? Destination { get; set; }

    /// <summary>Gets or sets how many answers are still to come, for a request sent to several servers.</summary>
    public int AcksLeft { get; set; }

    /// <summary>Gets the outcome, once completed.</summary>
    public TStatus Status { get; private set; } = default!;

    /// <summary>Gets the answered value's flags (opaque to this type; a cache item's flags).</summary>
    public uint ResponseFlags { get; private set; }

    /// <summary>Gets the answered value's version (a cache item's CAS unique): fragments of another version are not mixed in.</summary>
    public ulong ResponseVersion { get; private set; }

    /// <summary>Gets the hops the request took to the server that answered it.</summary>
    public int Hops { get; private set; }

    /// <summary>Gets the length of the answered value in the buffer of <see cref="ResponseBuffer"/>.</summary>
    protected int ResponseLength { get; private set; }

    /// <summary>
    /// Takes one fragment of the answer's value (fragments may come in any order, and twice) on the
    /// loop. The caller checks that <paramref name="total"/> is within its size limit. A fragment of
    /// another version of the value (its total or version differs from the first one's: the answer to
    /// an earlier try) is ignored, so values are never mixed.
    /// </summary>
    /// <returns>True once every byte of the value arrived.</returns>
    public bool AddResponseChunk(int total, int offset, ReadOnlySpan<byte> chunk, uint flags, ulong version, int hops)
    {
        if (!_responseStarted)
        {
            _responseStarted = true;
            ResponseLength = total;
            ResponseFlags = flags;
            ResponseVersion = version;
            Hops = hops;
        }

        if (total != ResponseLength || version != ResponseVersion || !_fragments.TryAdd(offset, chunk.Length, total))
        {
            return false;
        }

        chunk.CopyTo(ResponseBuffer(total)[offset..]);
        return _fragments.ReceivedBytes >= total;
    }

    /// <summary>Forgets the fragments of an answer still incomplete, before the request is sent again.</summary>
    public void ForgetPartialResponse()
    {
        _responseStarted = false;
        _fragments.Reset();
    }

    /// <summary>Records the outcome and tells the issuer; called once per use, on any thread.</summary>
    public void Complete(TStatus status)
    {
        Status = status;
        OnCompleted();
    }

    /// <summary>Clears the answer of an earlier use.</summary>
    protected void ResetResponse()
    {
        ForgetPartialResponse();
        RetransmitAt = 0;
        Retransmissions = 0;
        AcksLeft = 0;
        Destination = null;
        ResponseLength = 0;
        ResponseFlags = 0;
        ResponseVersion = 0;
        Hops = 0;
        Status = default!;
    }

    /// <summary>Gets a buffer of at least <paramref name="length"/> bytes for the answer's value; the same one for every fragment of one answer.</summary>
    protected abstract Span<byte> ResponseBuffer(int length);

    /// <summary>Hands the answer to the issuer.</summary>
    protected abstract void OnCompleted();
}
