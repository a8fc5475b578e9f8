using CamCube.Packets;

namespace CamCube.Services.Diagnostics;

/// <summary>
/// The link benchmark (camcubeos 4.2.1): every server saturates L = 1..6 of its links with
/// full-size one-hop frames, offered whenever a link polls, and counts what its neighbours send
/// it. A limit per link bounds the run (runs on a zero-latency transport need one).
/// </summary>
public sealed class LinkBenchmarkService() : ServiceBase(ServiceId, "link-benchmark")
{
    /// <summary>The link benchmark's id.</summary>
    public new const ushort ServiceId = 0x0011;

    private readonly long[] _remaining = new long[LinkDirections.Count];
    private int _links;
    private long _startTimestamp;
    private long _packetsReceived;
    private long _bytesReceived;

    /// <summary>Gets whether the benchmark is sending.</summary>
    public bool IsRunning { get; private set; }

    /// <summary>
    /// Starts saturating the first <paramref name="links"/> links this server has (in direction order)
    /// and resets the counters. With <paramref name="packetsPerLinkMax"/>, each link sends at most that many frames.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The link count is outside 1..6 or above the links this server has.</exception>
    public void Start(int links, long packetsPerLinkMax = long.MaxValue)
    {
        if (links < 1 || links > Node.Shape.LinkCount)
        {
            throw new ArgumentOutOfRangeException(nameof(links), links, $"L is from 1 to the {Node.Shape.LinkCount} links a server of {Node.Shape} has.");
        }

        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(packetsPerLinkMax);
        _links = links;
        _packetsReceived = 0;
        _bytesReceived = 0;
        _startTimestamp = Node.TimeProvider.GetTimestamp();
        Array.Clear(_remaining);
        Span<LinkDirection> existing = stackalloc LinkDirection[LinkDirections.Count];
        var count = Node.Shape.GetLinks(existing);
        for (var i = 0; i < links && i < count; i++)
        {
            _remaining[(int)existing[i]] = packetsPerLinkMax;
        }

        IsRunning = true;
        Node.RequestPoll();
    }

    /// <summary>Stops sending; the counters keep their values.</summary>
    public void Stop()
    {
        IsRunning = false;
        Array.Clear(_remaining);
    }

    /// <summary>Gets what this server has received since the benchmark started.</summary>
    public LinkBenchmarkReport Report() =>
        new(Node.Self, _links, Node.TimeProvider.GetElapsedTime(_startTimestamp), _packetsReceived, _bytesReceived);

    /// <inheritdoc/>
    public override Packet? Poll(LinkDirection link)
    {
        var d = (int)link;
        if (!IsRunning || _remaining[d] == 0 || !Node.IsLinkUp(link))
        {
            return null;
        }

        _remaining[d]--;
        var packet = Node.CreatePacket();
        packet.WriteHeader(ServiceId, DestinationKind.Neighbor, 1, Node.Self, KeyCoordinate.At(Node.Shape.Neighbor(Node.Self, link), 0));
        packet.PayloadLength = packet.PayloadCapacity;
        return packet;
    }

    /// <inheritdoc/>
    public override bool OnNeighborFrame(Packet packet, LinkDirection link)
    {
        ArgumentNullException.ThrowIfNull(packet);
        _packetsReceived++;
        _bytesReceived += packet.Length;
        return false;
    }
}
