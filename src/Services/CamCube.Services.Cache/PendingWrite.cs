namespace CamCube.Services.Cache;

/// <summary>
/// A write the root executed whose answer waits until no copy of the old value can answer a read
/// any more: every holder of a live copy acknowledged the invalidation or its lease ended, and no
/// earlier write of the same key still waits. Pooled by the service; used on the loop only.
/// </summary>
internal sealed class PendingWrite
{
    /// <summary>Gets the request's fixed part and key, as they arrived (the answer and the invalidations are made from them).</summary>
    public byte[] Request { get; } = new byte[CacheMessage.FixedBytes + CacheKeys.LengthMax];

    public int RequestLength { get; private set; }

    /// <summary>Gets the holders whose acknowledgement is still to come, each with its lease's end.</summary>
    public List<CopyHolder> Awaiting { get; } = [];

    public CacheStatus Status { get; private set; }

    /// <summary>Gets the value the answer carries (incr, decr, get-and-touch), as it was when the write was done.</summary>
    public CacheItem? Answer { get; private set; }

    /// <summary>Gets the timestamp before which the answer may not go, whatever the acknowledgements (copies whose item left the store).</summary>
    public long NotBefore { get; private set; }

    /// <summary>Gets the timestamp at which invalidations still unacknowledged are sent again.</summary>
    public long ResendAt { get; set; }

    public ReadOnlySpan<byte> RequestBytes => Request.AsSpan(0, RequestLength);

    public ReadOnlySpan<byte> Key => CacheMessage.KeyOf(RequestBytes);

    public Coordinate Requester => CacheMessage.RequesterOf(RequestBytes);

    public uint RequestId => CacheMessage.RequestIdOf(RequestBytes);

    public void Prepare(ReadOnlySpan<byte> request, CacheStatus status, CacheItem? answer, long notBefore)
    {
        var length = CacheMessage.FixedBytes + request[CacheMessage.KeyLengthOffset];
        request[..length].CopyTo(Request);
        RequestLength = length;
        Status = status;
        Answer = answer;
        NotBefore = notBefore;
        Awaiting.Clear();
    }

    public void Clear()
    {
        Answer = null;
        Awaiting.Clear();
        RequestLength = 0;
    }
}
