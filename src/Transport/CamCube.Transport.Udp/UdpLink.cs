using System.Net;
using System.Security.Cryptography;
using CamCube.Packets;

namespace CamCube.Transport.Udp;

/// <summary>
/// The state of one of a node's links: its peer, its keys, its queue of unsent frames (on the
/// event loop), its replay window (on the receive thread) and its counters.
/// </summary>
internal sealed class UdpLink : IDisposable
{
    /// <summary>The fewest frames datagrams after which a receiver returns credit (for the smallest windows, <see cref="UdpTransportOptions.DatagramsInFlightMax"/> of 8).</summary>
    public const int CreditEveryDatagramsMin = 4;

    /// <summary>
    /// The most frames datagrams after which a receiver returns credit: a sender with the smallest
    /// window allowed (twice <see cref="CreditEveryDatagramsMin"/>) still gets credit before it has
    /// to wait for the credit timeout, whatever window the receiver has.
    /// </summary>
    public const int CreditEveryDatagramsMax = 8;

    private readonly Packet?[] _queue;
    private readonly ulong[] _inFlight;
    private int _head;
    private int _inFlightHead;
    private long _creditedCounter;
    private long _highestReceived;
    private int _uncredited;
    private IPEndPoint _peer;
    private SocketAddress _peerAddress;

    public UdpLink(LinkDirection direction, LinkDirection incomingSenderLink, IPEndPoint peer, byte[] sendKey, byte[] receiveKey, int framesInFlightMax, int datagramsInFlightMax)
    {
        Direction = direction;
        IncomingSenderLink = incomingSenderLink;
        _peer = peer;
        _peerAddress = peer.Serialize();
        SendAead = new AesGcm(sendKey, UdpDatagram.TagSizeBytes);
        ReceiveAead = new AesGcm(receiveKey, UdpDatagram.TagSizeBytes);
        CryptographicOperations.ZeroMemory(sendKey);
        CryptographicOperations.ZeroMemory(receiveKey);
        _queue = new Packet?[framesInFlightMax];
        _inFlight = new ulong[datagramsInFlightMax];

        // A quarter of the window: at L = 1 a credit datagram (a send, a receive, a seal and an
        // open) per 8 full-size datagrams instead of per 4, with three quarters of the window
        // still to send while the credit travels.
        CreditEveryDatagrams = Math.Clamp(datagramsInFlightMax / 4, CreditEveryDatagramsMin, CreditEveryDatagramsMax);
    }

    /// <summary>Gets after how many frames datagrams this receiver returns credit, in a credit datagram if none of its own datagrams carried it meanwhile.</summary>
    public int CreditEveryDatagrams { get; }

    public LinkDirection Direction { get; }

    /// <summary>Gets or sets the transport the link belongs to, for its rate timer's callback.</summary>
    public UdpLinkTransport? Owner { get; set; }

    /// <summary>Gets the link id the neighbour writes in datagrams it sends to us on this link: the opposite direction, or the same on an axis of size 2.</summary>
    public LinkDirection IncomingSenderLink { get; }

    /// <summary>Gets the neighbour's endpoint; it changes only when its host name resolves to a new address.</summary>
    public IPEndPoint Peer => Volatile.Read(ref _peer);

    /// <summary>Gets the neighbour's endpoint as the socket reports senders; read on the receive thread, replaced whole on the loop.</summary>
    public SocketAddress PeerAddress => Volatile.Read(ref _peerAddress);

    /// <summary>Gets or sets whether a resolution of the neighbour's host name is under way (event loop).</summary>
    public bool Resolving { get; set; }

    /// <summary>Gets or sets when the neighbour's host name was last resolved, in loop timestamps (event loop).</summary>
    public long ResolvedTimestamp { get; set; }

    /// <summary>Gets or sets the endpoint a finished resolution found, until the loop applies it.</summary>
    public IPEndPoint? ResolvedPeer { get; set; }

    /// <summary>Gets the AEAD for datagrams we send; used on the event loop.</summary>
    public AesGcm SendAead { get; }

    /// <summary>Gets the AEAD for datagrams we receive; used on the receive thread.</summary>
    public AesGcm ReceiveAead { get; }

    public ReplayWindow Replay { get; } = new();

    public ulong SendCounter { get; set; }

    public TokenBucket? Bucket { get; set; }

    /// <summary>Gets or sets the link's one timer: the rate limit's next tokens, or the credit timeout.</summary>
    public ITimer? Timer { get; set; }

    public bool FlushPosted { get; set; }

    public bool TimerArmed { get; set; }

    /// <summary>Gets or sets when the armed timer fires, in <see cref="TimeProvider"/> timestamps.</summary>
    public long TimerDueTimestamp { get; set; }

    /// <summary>Gets or sets when the link ran out of credit, or 0 while it has credit.</summary>
    public long StalledTimestamp { get; set; }

    /// <summary>Gets the number of frames datagrams sent and not yet credited (event loop).</summary>
    public int InFlightDatagrams { get; private set; }

    /// <summary>Gets whether every credit is used (event loop).</summary>
    public bool IsOutOfCredit => InFlightDatagrams == _inFlight.Length;

    public bool RoomWanted { get; set; }

    /// <summary>Gets the number of frames waiting to be sent.</summary>
    public int Count { get; private set; }

    /// <summary>Gets the bytes the waiting frames take in a body, length prefixes included.</summary>
    public int PendingBodyBytes { get; private set; }

    public bool IsFull => Count == _queue.Length;

#pragma warning disable SA1401, CA1051 // Counters are fields so that Interlocked can update them.
    public long FramesSent;
    public long FrameBytesSent;
    public long DatagramsSent;
    public long FramesReceived;
    public long FrameBytesReceived;
    public long DatagramsReceived;
    public long SendErrors;
    public long CreditTimeouts;
    public long PeerAddressChanges;
    public long CreditDatagramsSent;
#pragma warning restore SA1401, CA1051

    /// <summary>Points the link at the neighbour's new address (event loop); datagrams from the old one count as unknown from now on.</summary>
    public void ChangePeer(IPEndPoint peer)
    {
        Volatile.Write(ref _peerAddress, peer.Serialize());
        Volatile.Write(ref _peer, peer);
        Interlocked.Increment(ref PeerAddressChanges);
    }

    public void Enqueue(Packet frame)
    {
        _queue[(_head + Count) % _queue.Length] = frame;
        Count++;
        PendingBodyBytes += UdpDatagram.LengthPrefixBytes + frame.Length;
    }

    /// <summary>Gets the <paramref name="index"/>-th waiting frame from the head.</summary>
    public Packet Peek(int index) => _queue[(_head + index) % _queue.Length]!;

    public Packet Dequeue()
    {
        var frame = _queue[_head]!;
        _queue[_head] = null;
        _head = (_head + 1) % _queue.Length;
        Count--;
        PendingBodyBytes -= UdpDatagram.LengthPrefixBytes + frame.Length;
        return frame;
    }

    /// <summary>Records a frames datagram sent with <paramref name="counter"/> (event loop).</summary>
    public void AddInFlight(ulong counter)
    {
        _inFlight[(_inFlightHead + InFlightDatagrams) % _inFlight.Length] = counter;
        InFlightDatagrams++;
    }

    /// <summary>Forgets in-flight datagrams the neighbour has credited (event loop); returns whether any were.</summary>
    public bool TakeCredit()
    {
        var credited = (ulong)Interlocked.Read(ref _creditedCounter);
        var any = false;
        while (InFlightDatagrams > 0 && _inFlight[_inFlightHead] <= credited)
        {
            _inFlightHead = (_inFlightHead + 1) % _inFlight.Length;
            InFlightDatagrams--;
            any = true;
        }

        return any;
    }

    /// <summary>Takes every in-flight datagram as lost after the credit timeout (event loop).</summary>
    public void ForgetInFlight()
    {
        _inFlightHead = 0;
        InFlightDatagrams = 0;
    }

    /// <summary>
    /// Records credit from the neighbour: it has received our frames datagrams up to
    /// <paramref name="counter"/> (receive thread, or the loop that reads the socket). Returns
    /// whether that is news (more than any credit before).
    /// </summary>
    public bool Credit(ulong counter)
    {
        long current;
        do
        {
            current = Interlocked.Read(ref _creditedCounter);
            if ((ulong)current >= counter)
            {
                return false;
            }
        }
        while (Interlocked.CompareExchange(ref _creditedCounter, (long)counter, current) != current);
        return true;
    }

    /// <summary>
    /// Records a frames datagram received with <paramref name="counter"/> (receive thread, or the
    /// loop that reads the socket); returns true when the <see cref="CreditEveryDatagrams"/>-th
    /// datagram since credit last went back arrives: a credit datagram is due unless a datagram of
    /// ours carries the credit first.
    /// </summary>
    public bool Received(ulong counter)
    {
        if ((ulong)Volatile.Read(ref _highestReceived) < counter)
        {
            Volatile.Write(ref _highestReceived, (long)counter);
        }

        return Interlocked.Increment(ref _uncredited) == CreditEveryDatagrams;
    }

    /// <summary>Gets the frames datagrams received since credit last went back to the neighbour.</summary>
    public int UncreditedDatagrams => Volatile.Read(ref _uncredited);

    /// <summary>
    /// Takes the credit that every datagram to the neighbour carries (event loop): the highest frames
    /// counter received so far, or 0 before any; the count of datagrams owed credit starts again.
    /// </summary>
    public ulong TakeCreditToReturn()
    {
        // Reset first: a datagram counted before the reset has its counter in what is read next.
        Interlocked.Exchange(ref _uncredited, 0);
        return (ulong)Volatile.Read(ref _highestReceived);
    }

    public UdpLinkCounters Snapshot() => new(
        Interlocked.Read(ref FramesSent),
        Interlocked.Read(ref FrameBytesSent),
        Interlocked.Read(ref DatagramsSent),
        Interlocked.Read(ref FramesReceived),
        Interlocked.Read(ref FrameBytesReceived),
        Interlocked.Read(ref DatagramsReceived),
        Interlocked.Read(ref SendErrors),
        Interlocked.Read(ref CreditTimeouts),
        Interlocked.Read(ref PeerAddressChanges),
        Interlocked.Read(ref CreditDatagramsSent));

    /// <summary>Releases every waiting frame and the keys.</summary>
    public void Dispose()
    {
        while (Count > 0)
        {
            Dequeue().Release();
        }

        Timer?.Dispose();
        SendAead.Dispose();
        ReceiveAead.Dispose();
    }
}
