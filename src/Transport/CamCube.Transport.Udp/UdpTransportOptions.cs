using System.Net;
using System.Net.Sockets;

namespace CamCube.Transport.Udp;

/// <summary>Configuration of a <see cref="UdpLinkTransport"/>. Every node of a cube must use the same batch size and key.</summary>
public sealed class UdpTransportOptions
{
    /// <summary>The default of <see cref="BatchBytesMax"/>.</summary>
    public const int DefaultBatchBytesMax = 8_192;

    /// <summary>The default of <see cref="FramesInFlightMax"/>.</summary>
    public const int DefaultFramesInFlightMax = 64;

    /// <summary>The default of <see cref="DatagramsInFlightMax"/>.</summary>
    public const int DefaultDatagramsInFlightMax = 32;

    /// <summary>The default of <see cref="CreditTimeoutMilliseconds"/>.</summary>
    public const int DefaultCreditTimeoutMilliseconds = 200;

    /// <summary>The default of <see cref="SocketBufferBytes"/>: 4 MiB.</summary>
    public const int DefaultSocketBufferBytes = 4 * 1024 * 1024;

    /// <summary>Gets where every server listens; the node's own address and its neighbours' come from it.</summary>
    public required UdpPeerAddressing Addressing { get; init; }

    /// <summary>
    /// Gets the cluster key that authenticates and encrypts every datagram. Required unless
    /// <see cref="AllowInsecure"/> is set.
    /// </summary>
    public ClusterKey? ClusterKey { get; init; }

    /// <summary>
    /// Gets whether the transport may run without a cluster key (datagrams are then sealed with
    /// a well-known all-zero key: integrity against corruption, no secrecy, no authentication).
    /// Refused unless the bound address and every peer address are loopback addresses.
    /// </summary>
    public bool AllowInsecure { get; init; }

    /// <summary>
    /// Gets the most bytes of length-prefixed frames coalesced into one datagram (the paper's
    /// aggregation into jumbo frames). A single frame larger than this travels alone. Default
    /// 8,192; use about 1,400 across networks without jumbo frames to avoid IP fragmentation.
    /// </summary>
    public int BatchBytesMax { get; init; } = DefaultBatchBytesMax;

    /// <summary>
    /// Gets the most frames a link holds that the socket has not sent yet. When a link holds this
    /// many, <see cref="UdpLinkTransport.HasRoom"/> is false and <see cref="UdpLinkTransport.TrySend"/>
    /// refuses frames until the transport reports room. Default 64.
    /// </summary>
    public int FramesInFlightMax { get; init; } = DefaultFramesInFlightMax;

    /// <summary>
    /// Gets the most datagrams a link sends that the neighbour has not yet credited back (flow
    /// control, so that a busy neighbour's socket buffer does not overflow and drop). The
    /// transport lowers it to what its socket's receive buffer holds for all its links, but never
    /// below 8. Default 32.
    /// </summary>
    public int DatagramsInFlightMax { get; init; } = DefaultDatagramsInFlightMax;

    /// <summary>
    /// Gets how long a link whose credit is used up waits for the neighbour's credit before it
    /// takes the missing datagrams as lost and sends again, in milliseconds. Default 200.
    /// </summary>
    public int CreditTimeoutMilliseconds { get; init; } = DefaultCreditTimeoutMilliseconds;

    /// <summary>
    /// Gets the rate limit of every link in bits per second, counted over whole datagrams (header
    /// and tag included); 0 (the default) for no limit. For example 1,000,000,000 emulates 1 Gbps links.
    /// </summary>
    public long RateLimitBitsPerSecond { get; init; }

    /// <summary>
    /// Gets the depth of each link's token bucket in bytes; 0 (the default) picks the larger of
    /// two of the largest datagrams and 20 ms at the rate limit (timers are
    /// coarse; the depth keeps the rate when one fires late).
    /// </summary>
    public int RateLimitBurstBytes { get; init; }

    /// <summary>
    /// Gets the local endpoint to bind; null (the default) binds the node's own address from
    /// <see cref="Addressing"/> (every interface, in host-pattern mode).
    /// </summary>
    public IPEndPoint? BindEndPoint { get; init; }

    /// <summary>
    /// Gets how host names of <see cref="Addressing"/> are resolved to addresses: DNS
    /// (<see cref="Dns.GetHostAddressesAsync(string, AddressFamily, CancellationToken)"/>) if null.
    /// Replace it to discover peers another way (a service registry, a test's table).
    /// </summary>
    public Func<string, AddressFamily, CancellationToken, Task<IPAddress[]>>? HostResolver { get; init; }

    /// <summary>
    /// Gets the least time between two resolutions of a silent neighbour's host name. A
    /// neighbour that stops crediting (a restarted container or pod may come back at a new
    /// address) has its name resolved again, at most this often. Default 1 s.
    /// </summary>
    public TimeSpan PeerResolveIntervalMin { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>Gets the size asked for the socket's send and receive buffers in bytes (the kernel may cap it). Default 4 MiB.</summary>
    public int SocketBufferBytes { get; init; } = DefaultSocketBufferBytes;

    /// <summary>
    /// Gets whether a run of datagrams to one neighbour leaves in one system call with UDP
    /// segmentation offload where the kernel has it (Linux's <c>UDP_SEGMENT</c>; default true). The
    /// neighbour receives the same datagrams either way. A transport whose segmented send is
    /// refused (datagrams above the route's MTU, a device that cannot checksum them) sends one
    /// datagram per call from then on; <see cref="UdpLinkTransport.UsesSegmentationOffload"/> tells.
    /// </summary>
    public bool SegmentationOffload { get; init; } = true;

    /// <summary>Checks that every value is in range.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A value is out of range; the message names it.</exception>
    /// <exception cref="ArgumentNullException"><see cref="Addressing"/> is null.</exception>
    public void Validate()
    {
        ArgumentNullException.ThrowIfNull(Addressing);
        if (BatchBytesMax is < 64 or > UdpDatagram.BodyBytesMax)
        {
            throw new ArgumentOutOfRangeException(nameof(BatchBytesMax), BatchBytesMax, $"BatchBytesMax is from 64 to {UdpDatagram.BodyBytesMax} bytes.");
        }

        if (FramesInFlightMax is < 1 or > 1_048_576)
        {
            throw new ArgumentOutOfRangeException(nameof(FramesInFlightMax), FramesInFlightMax, "FramesInFlightMax is from 1 to 1,048,576 frames.");
        }

        if (DatagramsInFlightMax is < UdpLink.CreditEveryDatagramsMin * 2 or > 65_536)
        {
            throw new ArgumentOutOfRangeException(nameof(DatagramsInFlightMax), DatagramsInFlightMax, $"DatagramsInFlightMax is from {UdpLink.CreditEveryDatagramsMin * 2} to 65,536 datagrams.");
        }

        ArgumentOutOfRangeException.ThrowIfLessThan(CreditTimeoutMilliseconds, 1, nameof(CreditTimeoutMilliseconds));
        ArgumentOutOfRangeException.ThrowIfNegative(RateLimitBitsPerSecond, nameof(RateLimitBitsPerSecond));
        ArgumentOutOfRangeException.ThrowIfNegative(RateLimitBurstBytes, nameof(RateLimitBurstBytes));
        ArgumentOutOfRangeException.ThrowIfLessThan(SocketBufferBytes, 4096, nameof(SocketBufferBytes));
        if (PeerResolveIntervalMin < TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(PeerResolveIntervalMin), PeerResolveIntervalMin, "PeerResolveIntervalMin is zero or more.");
        }
    }
}
