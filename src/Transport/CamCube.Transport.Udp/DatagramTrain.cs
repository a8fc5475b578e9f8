namespace CamCube.Transport.Udp;

/// <summary>
/// Datagrams for one neighbour, sealed one after another into one buffer so that a single system
/// call sends them all with UDP generic segmentation offload (Linux's <c>UDP_SEGMENT</c>): the
/// kernel cuts the buffer into datagrams of the first one's size, the last one possibly shorter,
/// and the neighbour receives exactly the datagrams it would have received one by one. A train
/// therefore holds datagrams of one size, and at most one shorter datagram, last.
/// </summary>
internal sealed class DatagramTrain
{
    /// <summary>The most bytes a train holds: the largest UDP payload over IPv4, which bounds the whole segmented send.</summary>
    public const int BytesMax = UdpDatagram.UdpPayloadBytesMax;

    /// <summary>The most datagrams in one segmented send: the kernel's <c>UDP_MAX_SEGMENTS</c> (64 in older kernels, raised to 128 in newer ones).</summary>
    public const int DatagramsMax = 64;

    private readonly byte[] _buffer = GC.AllocateUninitializedArray<byte>(BytesMax);
    private readonly int[] _frames = new int[DatagramsMax];
    private readonly long[] _frameBytes = new long[DatagramsMax];
    private bool _closed;

    /// <summary>Gets the link the datagrams go to, or null while the train is empty.</summary>
    public UdpLink? Link { get; private set; }

    /// <summary>Gets how many datagrams the train holds.</summary>
    public int Count { get; private set; }

    /// <summary>Gets the bytes the train holds, all datagrams together.</summary>
    public int Length { get; private set; }

    /// <summary>Gets the size of every datagram but a shorter last one: the first datagram's size.</summary>
    public int SegmentBytes { get; private set; }

    /// <summary>Gets all the datagrams, back to back.</summary>
    public ReadOnlySpan<byte> Bytes => _buffer.AsSpan(0, Length);

    /// <summary>Gets whether a datagram of <paramref name="length"/> bytes for <paramref name="link"/> may join the train (else the train is sent first).</summary>
    public bool CanAppend(UdpLink link, int length) =>
        Count == 0 ||
        (link == Link && !_closed && Count < DatagramsMax && length <= SegmentBytes && Length + length <= BytesMax);

    /// <summary>
    /// Gets where the next datagram of <paramref name="length"/> bytes is written, and records it
    /// with the frames it carries; a datagram shorter than the first closes the train.
    /// </summary>
    public Span<byte> Append(UdpLink link, int length, int frames, long frameBytes)
    {
        if (!CanAppend(link, length))
        {
            throw new InvalidOperationException("The datagram does not fit the train; send the train first.");
        }

        if (Count == 0)
        {
            Link = link;
            SegmentBytes = length;
        }
        else if (length < SegmentBytes)
        {
            _closed = true;
        }

        var slot = _buffer.AsSpan(Length, length);
        _frames[Count] = frames;
        _frameBytes[Count] = frameBytes;
        Length += length;
        Count++;
        return slot;
    }

    /// <summary>Gets the <paramref name="index"/>-th datagram.</summary>
    public ReadOnlySpan<byte> Datagram(int index)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual((uint)index, (uint)Count, nameof(index));
        var start = index * SegmentBytes;
        return _buffer.AsSpan(start, Math.Min(SegmentBytes, Length - start));
    }

    /// <summary>Gets the frames the <paramref name="index"/>-th datagram carries, and their bytes.</summary>
    public (int Frames, long FrameBytes) FramesOf(int index) => (_frames[index], _frameBytes[index]);

    /// <summary>Gets the frames of all the datagrams, and their bytes.</summary>
    public (int Frames, long FrameBytes) TotalFrames()
    {
        var frames = 0;
        long bytes = 0;
        for (var i = 0; i < Count; i++)
        {
            frames += _frames[i];
            bytes += _frameBytes[i];
        }

        return (frames, bytes);
    }

    /// <summary>Empties the train (after it was sent).</summary>
    public void Clear()
    {
        Link = null;
        Count = 0;
        Length = 0;
        SegmentBytes = 0;
        _closed = false;
    }
}
