using CamCube.Packets;
using CamCube.Services;
using CamCube.Transport;

namespace CamCube.Benchmarks;

/// <summary>
/// A transport whose links always have room and which releases every frame sent, counting them: one
/// server measured on its own. With <paramref name="copyToWire"/> it first copies each frame into a
/// datagram buffer (<see cref="Packet.CopyFrameTo"/>), as the UDP transport does.
/// </summary>
/// <param name="shape">The torus shape.</param>
/// <param name="self">The server measured.</param>
/// <param name="copyToWire">Whether each frame is copied into a datagram before it is released.</param>
public sealed class DiscardTransport(TorusShape shape, Coordinate self, bool copyToWire = false) : ILinkTransport
{
    private readonly byte[]? _datagram = copyToWire ? new byte[ushort.MaxValue] : null;

    /// <summary>Gets the sink the node gave at start.</summary>
    public ITransportSink Sink { get; private set; } = null!;

    /// <summary>Gets the frames sent per link.</summary>
    public long[] FramesSent { get; } = new long[LinkDirections.Count];

    /// <inheritdoc/>
    public TorusShape Shape { get; } = shape;

    /// <inheritdoc/>
    public Coordinate Self { get; } = self;

    /// <inheritdoc/>
    public void Start(ITransportSink sink) => Sink = sink;

    /// <inheritdoc/>
    public void Stop()
    {
    }

    /// <inheritdoc/>
    public bool HasRoom(LinkDirection link) => Shape.HasLink(link);

    /// <inheritdoc/>
    public bool TrySend(LinkDirection link, Packet frame)
    {
        if (_datagram is not null)
        {
            frame.CopyFrameTo(_datagram);
        }

        FramesSent[(int)link]++;
        frame.Release();
        return true;
    }

    /// <summary>Brings every link of the started node up: a forged heartbeat from each neighbour, from <paramref name="pool"/>.</summary>
    public void ForgeNeighbourHeartbeats(PacketPool pool)
    {
        ArgumentNullException.ThrowIfNull(pool);
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            var heartbeat = pool.Rent();
            heartbeat.WriteHeader(ServiceIds.Liveness, DestinationKind.Neighbor, 1, Shape.Neighbor(Self, (LinkDirection)d), KeyCoordinate.At(Self, 0));
            heartbeat.PayloadLength = 4;
            Sink.OnFrameReceived((LinkDirection)d, heartbeat);
        }
    }
}
