using System.Buffers;

namespace CamCube.Services.Cache;

/// <summary>
/// A request between its issuer's thread and its answer: queued, then in flight on the node's loop.
/// The issuer fills in the request and hands it to the service; the loop reads it only until it
/// has sent it (so the key and value may be borrowed memory the issuer keeps valid until the answer),
/// writes the answer into it and calls <see cref="Complete"/> once, after which it never touches it.
/// </summary>
internal abstract class PendingRequest
{
    private readonly FragmentTracker _fragments = new();
    private bool _responseStarted;

    /// <summary>Gets the operation; 0 for flush_all.</summary>
    public CacheOperation Operation { get; protected set; }

    /// <summary>Gets the key (borrowed until the request is sent).</summary>
    public ReadOnlyMemory<byte> Key { get; protected set; }

    /// <summary>Gets the value of a store operation (borrowed until the request is sent).</summary>
    public ReadOnlySequence<byte> Value { get; protected set; }

    public uint Flags { get; protected set; }

    public int ExpirationSeconds { get; protected set; }

    /// <summary>Gets the CAS unique value of a cas, or the delta of an increment or decrement: the one 64-bit argument on the wire.</summary>
    public ulong CasOrDelta { get; protected set; }

    public int FlushDelaySeconds { get; protected set; }

    public uint RequestId { get; set; }

    /// <summary>Gets or sets when the request is next sent again if no answer came, a timestamp of the node's clock.</summary>
    public long RetransmitAt { get; set; }

    /// <summary>Gets or sets how many times the request was sent again.</summary>
    public int Retransmissions { get; set; }

    /// <summary>Gets or sets when the request times out, a timestamp of the node's clock.</summary>
    public long Deadline { get; set; }

    /// <summary>Gets or sets how many flush acknowledgements are still to come.</summary>
    public int AcksLeft { get; set; }

    /// <summary>Gets the outcome, once completed.</summary>
    public CacheStatus Status { get; private set; }

    /// <summary>Gets the answered item's flags (a hit).</summary>
    public uint ResponseFlags { get; private set; }

    /// <summary>Gets the answered item's CAS unique value (a hit).</summary>
    public ulong ResponseCas { get; private set; }

    /// <summary>Gets the hops the request took to the server that answered it (a hit).</summary>
    public int Hops { get; private set; }

    /// <summary>Gets the length of the answered value in <see cref="ResponseBuffer"/>.</summary>
    protected int ResponseLength { get; private set; }

    /// <summary>
    /// Takes one fragment of the answer's value (fragments may come in any order, and twice); returns
    /// true once every byte of it arrived. The caller checks that <paramref name="total"/> is within the
    /// item size limit. A fragment of another version of the item (its total or CAS unique differs from
    /// the first one's: the answer to an earlier try) is ignored, so values are never mixed.
    /// </summary>
    public bool AddResponseChunk(int total, int offset, ReadOnlySpan<byte> chunk, uint flags, ulong cas, int hops)
    {
        if (!_responseStarted)
        {
            _responseStarted = true;
            ResponseLength = total;
            ResponseFlags = flags;
            ResponseCas = cas;
            Hops = hops;
        }

        if (total != ResponseLength || cas != ResponseCas || !_fragments.TryAdd(offset, chunk.Length, total))
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
    public void Complete(CacheStatus status)
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
        ResponseLength = 0;
        ResponseFlags = 0;
        ResponseCas = 0;
        Hops = 0;
        Status = 0;
    }

    /// <summary>Gets a buffer of at least <paramref name="length"/> bytes for the answer's value; the same one for every fragment.</summary>
    protected abstract Span<byte> ResponseBuffer(int length);

    /// <summary>Hands the answer to the issuer.</summary>
    protected abstract void OnCompleted();
}
