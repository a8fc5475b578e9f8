using System.Net;
using System.Net.Sockets;
using CamCube.Packets;

namespace CamCube.Transport.Udp;

/// <summary>
/// The UDP shim (DESIGN.md section 6): one UDP socket per node, each link a neighbour's address.
/// Small frames for the same link are coalesced into one datagram (the paper's aggregation into
/// jumbo frames); every datagram is encrypted and authenticated with AES-256-GCM under a key per
/// link direction, with a counter nonce and a sliding anti-replay window. Datagrams that are not
/// from a configured neighbour, fail authentication, are replayed, truncated, oversized or
/// malformed are dropped silently and counted; the transport never answers them.
/// </summary>
/// <remarks>
/// <para>Threads: the node calls <see cref="ILinkTransport"/> on its event loop. On a
/// <see cref="UdpEventLoop"/> the loop reads the socket itself; on any other loop a dedicated
/// receive thread reads it. Either way received frames are posted to the loop, and every call into
/// <see cref="ITransportSink"/> runs on the loop.</para>
/// <para>Room: a link holds at most <see cref="UdpTransportOptions.FramesInFlightMax"/> unsent
/// frames. The transport calls <see cref="ITransportSink.OnLinkRoom"/> once per link after
/// <see cref="Start"/>, and again when room comes back that the node found missing.</para>
/// <para>Flow control: a link has at most <see cref="UdpTransportOptions.DatagramsInFlightMax"/>
/// datagrams of frames that the neighbour has not credited back; the neighbour returns credit after
/// its event loop has taken the frames (in every datagram it sends back, and in a credit datagram
/// when none went back), so a busy neighbour slows its senders instead of losing datagrams in its
/// socket buffer.</para>
/// <para>The datagram format is in README.md beside this file.</para>
/// </remarks>
public sealed partial class UdpLinkTransport : ILinkTransport, ILoopWork, IDisposable
{
    private const int CodeRoom = 0;
    private const int CodeFlush = 1;
    private const int CodeTimer = 2;
    private const int CodeReceived = 3;
    private const int CodeCredit = 4;
    private const int CodeSendCredit = 5;
    private const int CodeResolved = 6;
    private const int CodeReceivedThenCredit = 7;

    private readonly IEventLoop _loop;

    // The loop when it reads the socket itself (told of every send, so it may spin for the reply).
    private readonly UdpEventLoop? _udpLoop;
    private readonly PacketPool _pool;
    private readonly UdpTransportOptions _options;
    private readonly UdpLink?[] _links = new UdpLink?[LinkDirections.Count];
    private readonly int _datagramBytesMax;
    private readonly int _frameBytesMax;
    private ITransportSink? _sink;
    private Socket? _socket;
    private Thread? _receiveThread;
    private volatile bool _stopped;
    private long _droppedUnknownSender;
    private long _droppedBadTag;
    private long _droppedReplay;
    private long _peerLookupFailures;
    private long _droppedMalformed;

    /// <summary>Creates a transport for server <paramref name="self"/> of a cube of <paramref name="shape"/>; nothing is bound until <see cref="Start"/>.</summary>
    /// <param name="shape">The cube's shape.</param>
    /// <param name="self">This node's coordinate.</param>
    /// <param name="loop">The node's event loop: events are posted to it and its clock paces the rate limit.</param>
    /// <param name="pool">The pool received frames are rented from; its capacity is the largest frame accepted.</param>
    /// <param name="options">The configuration.</param>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The coordinate is outside the shape, or an option is out of range.</exception>
    public UdpLinkTransport(TorusShape shape, Coordinate self, IEventLoop loop, PacketPool pool, UdpTransportOptions options)
    {
        ArgumentNullException.ThrowIfNull(loop);
        ArgumentNullException.ThrowIfNull(pool);
        ArgumentNullException.ThrowIfNull(options);
        shape.EnsureContains(self, nameof(self));
        options.Validate();
        Shape = shape;
        Self = self;
        _loop = loop;
        _udpLoop = loop as UdpEventLoop;
        _pool = pool;
        _options = options;
        _frameBytesMax = Math.Min(pool.PacketCapacityBytes, ushort.MaxValue);
        var bodyBytesMax = Math.Min(UdpDatagram.BodyBytesMax, Math.Max(options.BatchBytesMax, UdpDatagram.LengthPrefixBytes + _frameBytesMax));
        _frameBytesMax = Math.Min(_frameBytesMax, bodyBytesMax - UdpDatagram.LengthPrefixBytes);
        _datagramBytesMax = UdpDatagram.OverheadBytes + bodyBytesMax;
    }

    /// <inheritdoc/>
    public TorusShape Shape { get; }

    /// <inheritdoc/>
    public Coordinate Self { get; }

    /// <summary>Gets the largest datagram this transport sends or accepts, in bytes; larger ones are dropped as malformed.</summary>
    public int DatagramBytesMax => _datagramBytesMax;

    /// <summary>Gets the largest frame <see cref="TrySend"/> takes, in bytes.</summary>
    public int FrameBytesMax => _frameBytesMax;

    /// <summary>Gets the transport's socket, or null before <see cref="Start"/> (tests set kernel options on it).</summary>
    internal Socket? BoundSocket => _socket;

    /// <summary>Gets the local endpoint the socket is bound to, or null before <see cref="Start"/>.</summary>
    public IPEndPoint? LocalEndPoint => _socket?.LocalEndPoint as IPEndPoint;

    /// <summary>Gets the datagrams dropped because their source address and link id are not a configured neighbour link.</summary>
    public long DroppedUnknownSender => Interlocked.Read(ref _droppedUnknownSender);

    /// <summary>Gets the datagrams from a neighbour dropped because their AEAD tag did not verify (tampered, or another key).</summary>
    public long DroppedBadTag => Interlocked.Read(ref _droppedBadTag);

    /// <summary>Gets the datagrams dropped because their counter was seen already or is too far behind the newest.</summary>
    public long DroppedReplay => Interlocked.Read(ref _droppedReplay);

    /// <summary>Gets the datagrams dropped as truncated, oversized, of another magic or version, or with a malformed body.</summary>
    public long DroppedMalformed => Interlocked.Read(ref _droppedMalformed);

    /// <summary>Gets how many lookups of a silent neighbour's host name failed or gave an address that was refused; the link kept its address.</summary>
    public long PeerLookupFailures => Interlocked.Read(ref _peerLookupFailures);

    /// <summary>Gets the traffic counters of <paramref name="link"/>, all zero for a link the shape does not have.</summary>
    public UdpLinkCounters GetCounters(LinkDirection link) =>
        (uint)link < LinkDirections.Count && _links[(int)link] is { } l ? l.Snapshot() : default;

    /// <summary>Gets the resolved address of the neighbour on <paramref name="link"/>, or null before <see cref="Start"/> or for a link the shape does not have.</summary>
    public IPEndPoint? GetPeer(LinkDirection link) =>
        (uint)link < LinkDirections.Count ? _links[(int)link]?.Peer : null;

    /// <inheritdoc/>
    public bool HasRoom(LinkDirection link)
    {
        if (_stopped || (uint)link >= LinkDirections.Count || _links[(int)link] is not { } l)
        {
            return false;
        }

        if (l.IsFull)
        {
            l.RoomWanted = true;
            return false;
        }

        return true;
    }

    /// <inheritdoc/>
    /// <exception cref="ArgumentNullException">The frame is null.</exception>
    /// <exception cref="ArgumentException">The frame is empty or longer than <see cref="FrameBytesMax"/>.</exception>
    public bool TrySend(LinkDirection link, Packet frame)
    {
        ArgumentNullException.ThrowIfNull(frame);
        if (frame.Length == 0 || frame.Length > _frameBytesMax)
        {
            throw new ArgumentException($"A frame on a UDP link is from 1 to {_frameBytesMax} bytes; this one is {frame.Length}.", nameof(frame));
        }

        if (_stopped || (uint)link >= LinkDirections.Count || _links[(int)link] is not { } l)
        {
            return false;
        }

        if (l.IsFull)
        {
            l.RoomWanted = true;
            return false;
        }

        l.Enqueue(frame);
        if (l.PendingBodyBytes >= _options.BatchBytesMax)
        {
            // A full batch need not wait for the end of the burst.
            SendBatches(l, fullOnly: true);
        }

        if ((l.Count > 0 || _train?.Link == l) && !l.FlushPosted)
        {
            // camcubeos 3.3 aggregation: the flush runs after the work item that is sending now,
            // so every frame of the current burst shares the datagram, and every datagram of the
            // burst the train. A flush that finds no credit or tokens leaves the frames to the
            // credit or the link's timer.
            l.FlushPosted = true;
            _loop.Post(this, CodeFlush, (int)link, null);
        }

        return true;
    }

    /// <inheritdoc/>
    void ILoopWork.Execute(int code, int argument, Packet? packet)
    {
        if (_stopped || _sink is null)
        {
            packet?.Release();
            return;
        }

        var link = (LinkDirection)argument;
        switch (code)
        {
            case CodeReceived:
                _sink.OnFrameReceived(link, packet!);
                break;
            case CodeReceivedThenCredit:
                try
                {
                    _sink.OnFrameReceived(link, packet!);
                }
                finally
                {
                    _loop.Post(this, CodeSendCredit, argument, null);
                }

                break;
            case CodeRoom:
                _links[argument]!.RoomWanted = false;
                _sink.OnLinkRoom(link);
                break;
            case CodeFlush:
                _links[argument]!.FlushPosted = false;
                FlushAndReportRoom(_links[argument]!);
                break;
            case CodeTimer:
                OnTimer(_links[argument]!);
                break;
            case CodeCredit:
                if (_links[argument]!.TakeCredit() && _links[argument]!.Count > 0)
                {
                    FlushAndReportRoom(_links[argument]!);
                }

                break;
            case CodeSendCredit:
                SendCreditIfOwed(_links[argument]!);
                break;
            case CodeResolved:
                ApplyResolvedPeer(_links[argument]!);
                break;
            default:
                packet?.Release();
                break;
        }
    }

    /// <summary>Stops the transport; see <see cref="Stop"/>.</summary>
    public void Dispose() => Stop();
}
