using CamCube.Packets;
using CamCube.Transport;

namespace CamCube.Benchmarks;

/// <summary>A transport whose links always have room and which releases every frame sent, counting them: one server measured on its own.</summary>
public sealed class DiscardTransport(TorusShape shape, Coordinate self) : ILinkTransport
{
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
        FramesSent[(int)link]++;
        frame.Release();
        return true;
    }
}
