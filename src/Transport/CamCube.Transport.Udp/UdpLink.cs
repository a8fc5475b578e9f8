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
    private readonly Packet?[] _queue;
    private int _head;

    public UdpLink(LinkDirection direction, LinkDirection incomingSenderLink, IPEndPoint peer, byte[] sendKey, byte[] receiveKey, int framesInFlightMax)
    {
        Direction = direction;
        IncomingSenderLink = incomingSenderLink;
        Peer = peer;
        PeerAddress = peer.Serialize();
        SendAead = new AesGcm(sendKey, UdpDatagram.TagSizeBytes);
        ReceiveAead = new AesGcm(receiveKey, UdpDatagram.TagSizeBytes);
        CryptographicOperations.ZeroMemory(sendKey);
        CryptographicOperations.ZeroMemory(receiveKey);
        _queue = new Packet?[framesInFlightMax];
    }

    public LinkDirection Direction { get; }

    /// <summary>Gets or sets the transport the link belongs to, for its rate timer's callback.</summary>
    public UdpLinkTransport? Owner { get; set; }

    /// <summary>Gets the link id the neighbour writes in datagrams it sends to us on this link: the opposite direction, or the same on an axis of size 2.</summary>
    public LinkDirection IncomingSenderLink { get; }

    public IPEndPoint Peer { get; }

    public SocketAddress PeerAddress { get; }

    /// <summary>Gets the AEAD for datagrams we send; used on the event loop.</summary>
    public AesGcm SendAead { get; }

    /// <summary>Gets the AEAD for datagrams we receive; used on the receive thread.</summary>
    public AesGcm ReceiveAead { get; }

    public ReplayWindow Replay { get; } = new();

    public ulong SendCounter { get; set; }

    public TokenBucket? Bucket { get; set; }

    public ITimer? RateTimer { get; set; }

    public bool FlushPosted { get; set; }

    public bool TimerArmed { get; set; }

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
#pragma warning restore SA1401, CA1051

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

    public UdpLinkCounters Snapshot() => new(
        Interlocked.Read(ref FramesSent),
        Interlocked.Read(ref FrameBytesSent),
        Interlocked.Read(ref DatagramsSent),
        Interlocked.Read(ref FramesReceived),
        Interlocked.Read(ref FrameBytesReceived),
        Interlocked.Read(ref DatagramsReceived),
        Interlocked.Read(ref SendErrors));

    /// <summary>Releases every waiting frame and the keys.</summary>
    public void Dispose()
    {
        while (Count > 0)
        {
            Dequeue().Release();
        }

        RateTimer?.Dispose();
        SendAead.Dispose();
        ReceiveAead.Dispose();
    }
}
