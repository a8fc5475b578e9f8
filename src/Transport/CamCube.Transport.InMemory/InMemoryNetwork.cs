namespace CamCube.Transport.InMemory;

/// <summary>
/// The wiring of an in-memory cube: one transport per server, and directed links that carry up to
/// <see cref="LinkCapacityFrames"/> frames at a time, so "room on the link" is real and polling
/// order matters. A frame crosses a link as a work item on the shared event loop (zero latency).
/// Failures are injected by stopping a server's transport or cutting a link.
/// </summary>
public sealed class InMemoryNetwork
{
    private readonly InMemoryLinkTransport?[] _transports;
    private readonly InMemoryLink[] _links;

    /// <summary>Creates the network of <paramref name="shape"/> on <paramref name="loop"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The capacity is below 1, or the shape has more than 2^20 servers.</exception>
    public InMemoryNetwork(TorusShape shape, IEventLoop loop, int linkCapacityFrames = 4)
    {
        if (linkCapacityFrames < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(linkCapacityFrames), linkCapacityFrames, "A link carries at least one frame at a time.");
        }

        if (shape.ServerCount > 1 << 20)
        {
            throw new ArgumentOutOfRangeException(nameof(shape), shape, "An in-memory network holds at most 2^20 servers; use the simulator for more.");
        }

        Shape = shape;
        Loop = loop ?? throw new ArgumentNullException(nameof(loop));
        LinkCapacityFrames = linkCapacityFrames;
        _transports = new InMemoryLinkTransport?[shape.ServerCount];
        _links = new InMemoryLink[shape.ServerCount * LinkDirections.Count];
        for (var i = 0; i < shape.ServerCount; i++)
        {
            for (var d = 0; d < LinkDirections.Count; d++)
            {
                _links[(i * LinkDirections.Count) + d] = new InMemoryLink(this, shape.CoordinateAt(i), (LinkDirection)d);
            }
        }
    }

    /// <summary>Gets the shape.</summary>
    public TorusShape Shape { get; }

    /// <summary>Gets the loop every frame crosses on.</summary>
    public IEventLoop Loop { get; }

    /// <summary>Gets how many frames a directed link carries at a time.</summary>
    public int LinkCapacityFrames { get; }

    /// <summary>Gets how many frames reached a live receiver.</summary>
    public long FramesDelivered { get; internal set; }

    /// <summary>Gets how many frames were lost to cut links or stopped servers.</summary>
    public long FramesLost { get; internal set; }

    /// <summary>Creates the transport of the server at <paramref name="server"/>, replacing a stopped one (a restart).</summary>
    /// <exception cref="InvalidOperationException">A running transport exists for that server.</exception>
    public InMemoryLinkTransport CreateTransport(Coordinate server)
    {
        Shape.EnsureContains(server, nameof(server));
        var index = Shape.IndexOf(server);
        if (_transports[index] is { IsStopped: false })
        {
            throw new InvalidOperationException($"Server {server} already has a running transport; stop it before creating another.");
        }

        var transport = new InMemoryLinkTransport(this, server);
        _transports[index] = transport;
        return transport;
    }

    /// <summary>Cuts the cable between <paramref name="server"/> and its neighbour in <paramref name="link"/>: frames are lost both ways and both ends are told.</summary>
    public void CutLink(Coordinate server, LinkDirection link) => SetCut(server, link, cut: true);

    /// <summary>Repairs a cut cable; both ends are told.</summary>
    public void RestoreLink(Coordinate server, LinkDirection link) => SetCut(server, link, cut: false);

    /// <summary>Gets whether the cable from <paramref name="server"/> in <paramref name="link"/> is cut.</summary>
    public bool IsCut(Coordinate server, LinkDirection link) => LinkFrom(server, link).IsCut;

    internal InMemoryLink LinkFrom(Coordinate server, LinkDirection link) =>
        _links[(Shape.IndexOf(server) * LinkDirections.Count) + (int)link];

    internal InMemoryLinkTransport? LiveTransportAt(Coordinate server)
    {
        var transport = _transports[Shape.IndexOf(server)];
        return transport is { IsStarted: true, IsStopped: false } ? transport : null;
    }

    private void SetCut(Coordinate server, LinkDirection link, bool cut)
    {
        Shape.EnsureContains(server, nameof(server));
        if (!Shape.HasLink(link))
        {
            throw new ArgumentException($"Servers of {Shape} have no link {link.ToShortName()}.", nameof(link));
        }

        var neighbor = Shape.Neighbor(server, link);
        var peerLink = Shape.PeerLink(link);
        LinkFrom(server, link).IsCut = cut;
        LinkFrom(neighbor, peerLink).IsCut = cut;
        LiveTransportAt(server)?.ReportLinkStatus(link, up: !cut);
        LiveTransportAt(neighbor)?.ReportLinkStatus(peerLink, up: !cut);
    }
}
