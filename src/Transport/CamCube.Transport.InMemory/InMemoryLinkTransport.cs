using CamCube.Packets;

namespace CamCube.Transport.InMemory;

/// <summary>One server's links in an <see cref="InMemoryNetwork"/>. Runs entirely on the network's loop.</summary>
public sealed class InMemoryLinkTransport : ILinkTransport
{
    private readonly InMemoryNetwork _network;
    private ITransportSink? _sink;

    internal InMemoryLinkTransport(InMemoryNetwork network, Coordinate self)
    {
        _network = network;
        Self = self;
    }

    /// <inheritdoc/>
    public TorusShape Shape => _network.Shape;

    /// <inheritdoc/>
    public Coordinate Self { get; }

    /// <summary>Gets whether <see cref="Start"/> was called.</summary>
    public bool IsStarted { get; private set; }

    /// <summary>Gets whether <see cref="Stop"/> was called.</summary>
    public bool IsStopped { get; private set; }

    /// <inheritdoc/>
    public void Start(ITransportSink sink)
    {
        if (IsStarted)
        {
            throw new InvalidOperationException($"The transport of {Self} was already started.");
        }

        _sink = sink ?? throw new ArgumentNullException(nameof(sink));
        IsStarted = true;
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            if (Shape.HasLink((LinkDirection)d))
            {
                _network.LinkFrom(Self, (LinkDirection)d).Sender = this;
            }
        }
    }

    /// <inheritdoc/>
    public void Stop()
    {
        IsStopped = true;
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            var link = _network.LinkFrom(Self, (LinkDirection)d);
            if (link.Sender == this)
            {
                link.Sender = null;
            }
        }
    }

    /// <inheritdoc/>
    public bool HasRoom(LinkDirection link) =>
        IsStarted && !IsStopped && Shape.HasLink(link) && _network.LinkFrom(Self, link).InFlight < _network.LinkCapacityFrames;

    /// <inheritdoc/>
    public bool TrySend(LinkDirection link, Packet frame)
    {
        ArgumentNullException.ThrowIfNull(frame);
        if (!HasRoom(link))
        {
            return false;
        }

        _network.LinkFrom(Self, link).Carry(frame);
        return true;
    }

    internal void Receive(LinkDirection link, Packet frame) => _sink!.OnFrameReceived(link, frame);

    internal void ReportRoom(LinkDirection link)
    {
        if (IsStarted && !IsStopped)
        {
            _sink!.OnLinkRoom(link);
        }
    }

    internal void ReportLinkStatus(LinkDirection link, bool up) => _sink?.OnLinkStatus(link, up);
}
