using CamCube.Packets;

namespace CamCube.Transport.Simulation;

/// <summary>
/// The links of a simulated cube: bandwidth, propagation delay, frame overhead, MTU and transmit
/// queue length. Immutable; one instance is shared by every link of a network.
/// </summary>
public sealed record SimulatedNetworkOptions
{
    /// <summary>A standard Ethernet MTU: 1,500 bytes of payload per frame.</summary>
    public const int StandardMtuBytes = 1_500;

    /// <summary>A jumbo-frame MTU: 9,000 bytes of payload per frame (camcubeos 4.1).</summary>
    public const int JumboMtuBytes = 9_000;

    /// <summary>
    /// Ethernet's per-frame cost beyond the payload: 8 bytes of preamble and start delimiter,
    /// 14 of header, 4 of FCS and a 12-byte inter-frame gap.
    /// </summary>
    public const int EthernetFrameOverheadBytes = 38;

    /// <summary>Gets the default options: 1 Gbps, 1 µs propagation, 38 bytes of overhead, jumbo frames, one frame queued per link.</summary>
    public static SimulatedNetworkOptions Default { get; } = new();

    /// <summary>Gets the bandwidth of each direction of a link, in bits per second (default 10^9).</summary>
    public long BandwidthBitsPerSecond { get; init; } = 1_000_000_000;

    /// <summary>Gets the time from the last bit leaving a server to its arrival at the neighbour, in nanoseconds (default 1,000).</summary>
    public long PropagationDelayNanoseconds { get; init; } = 1_000;

    /// <summary>Gets the bytes each frame costs on the wire beyond its own length (default <see cref="EthernetFrameOverheadBytes"/>).</summary>
    public int FrameOverheadBytes { get; init; } = EthernetFrameOverheadBytes;

    /// <summary>
    /// Gets the largest frame a link carries, in bytes (the CamCube header included, the Ethernet
    /// overhead not): usually <see cref="StandardMtuBytes"/> or <see cref="JumboMtuBytes"/> (the default).
    /// </summary>
    public int MtuBytes { get; init; } = JumboMtuBytes;

    /// <summary>
    /// Gets the most frames a link's transmit queue holds, the one being serialized included
    /// (default 1: the link takes a new frame when the last one has left, so the node's fair
    /// polling, not a FIFO, decides the order). When full, <see cref="SimulatedLinkTransport.HasRoom"/>
    /// is false and <see cref="SimulatedLinkTransport.TrySend"/> refuses.
    /// </summary>
    public int FramesQueuedMax { get; init; } = 1;

    /// <summary>
    /// Gets whether a server failure is signalled to its neighbours as link-down events, as a
    /// NIC sees carrier loss when the server at the other end loses power (default true). When
    /// false, the neighbours' links stay up, frames sent to the failed server are lost on arrival,
    /// and only the node runtime's heartbeats can tell.
    /// </summary>
    public bool SignalServerFailureToNeighbors { get; init; } = true;

    /// <summary>Gets the serialization time of a frame of <paramref name="frameBytes"/> bytes, overhead included, rounded up to whole nanoseconds.</summary>
    public long SerializationNanoseconds(int frameBytes) =>
        ((((long)frameBytes + FrameOverheadBytes) * 8 * SimulationEngine.NanosecondsPerSecond) + BandwidthBitsPerSecond - 1) / BandwidthBitsPerSecond;

    /// <summary>Throws if any option is out of range.</summary>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range.</exception>
    public void Validate()
    {
        if (BandwidthBitsPerSecond is < 1_000 or > 10_000_000_000_000)
        {
            throw new ArgumentOutOfRangeException(nameof(BandwidthBitsPerSecond), BandwidthBitsPerSecond, "A link's bandwidth is from 1 kbps to 10 Tbps.");
        }

        if (PropagationDelayNanoseconds < 0)
        {
            throw new ArgumentOutOfRangeException(nameof(PropagationDelayNanoseconds), PropagationDelayNanoseconds, "The propagation delay cannot be negative.");
        }

        if (FrameOverheadBytes is < 0 or > 1_024)
        {
            throw new ArgumentOutOfRangeException(nameof(FrameOverheadBytes), FrameOverheadBytes, "The frame overhead is from 0 to 1,024 bytes.");
        }

        if (MtuBytes is < PacketHeader.SizeBytes or > ushort.MaxValue)
        {
            throw new ArgumentOutOfRangeException(nameof(MtuBytes), MtuBytes, $"The MTU is from {PacketHeader.SizeBytes} (one header) to {ushort.MaxValue} bytes.");
        }

        if (FramesQueuedMax is < 1 or > 65_536)
        {
            throw new ArgumentOutOfRangeException(nameof(FramesQueuedMax), FramesQueuedMax, "A link queues from 1 to 65,536 frames.");
        }
    }
}
