using CamCube.Packets;

namespace CamCube.Services.Reliable;

/// <summary>
/// A service that is only a <see cref="ReliableEndpoint"/>: messages to servers and keys, each
/// handed to <see cref="ReliableMessageHandler"/> on the receiver. A service with packets of its
/// own embeds an endpoint instead, wiring the same upcalls as this one.
/// </summary>
public class ReliableService : ServiceBase, IDropObserver
{
    private readonly ReliableMessageHandler _handler;
    private readonly ExchangeRequestHandler? _requestHandler;
    private readonly ReliableOptions? _options;
    private ReliableEndpoint? _endpoint;

    /// <summary>Creates the service.</summary>
    /// <param name="serviceId">Its id.</param>
    /// <param name="name">Its name.</param>
    /// <param name="handler">Receives each whole message, on the receiving node's loop.</param>
    /// <param name="options">The endpoint's settings; the defaults if null.</param>
    /// <exception cref="ArgumentNullException"><paramref name="handler"/> is null.</exception>
    public ReliableService(ushort serviceId, string name, ReliableMessageHandler handler, ReliableOptions? options = null)
        : this(serviceId, name, handler, null, options)
    {
    }

    /// <summary>Creates the service, which also answers one-packet exchanges.</summary>
    /// <param name="serviceId">Its id.</param>
    /// <param name="name">Its name.</param>
    /// <param name="handler">Receives each whole message, on the receiving node's loop.</param>
    /// <param name="requestHandler">Receives each exchange's request once; it answers with <see cref="ReliableEndpoint.Reply"/> on <see cref="Endpoint"/>.</param>
    /// <param name="options">The endpoint's settings; the defaults if null.</param>
    /// <exception cref="ArgumentNullException"><paramref name="handler"/> is null.</exception>
    public ReliableService(ushort serviceId, string name, ReliableMessageHandler handler, ExchangeRequestHandler? requestHandler, ReliableOptions? options = null)
        : base(serviceId, name)
    {
        _handler = handler ?? throw new ArgumentNullException(nameof(handler));
        _requestHandler = requestHandler;
        _options = options;
    }

    /// <summary>Gets the endpoint; use it on the node's loop.</summary>
    /// <exception cref="InvalidOperationException">The service is not registered.</exception>
    public ReliableEndpoint Endpoint => _endpoint ?? throw new InvalidOperationException($"Service {Name} is not registered on a node.");

    /// <inheritdoc/>
    public override void OnRegistered(INodeContext node)
    {
        base.OnRegistered(node);
        _endpoint = new ReliableEndpoint(node, ServiceId, _handler, _requestHandler, _options);
    }

    /// <inheritdoc/>
    public override void OnDeregistered()
    {
        _endpoint?.Stop();
        _endpoint = null;
        base.OnDeregistered();
    }

    /// <inheritdoc/>
    public override bool OnDeliver(Packet packet) => _endpoint?.OnDeliver(packet) ?? false;

    /// <inheritdoc/>
    public override Packet? Poll(LinkDirection link) => _endpoint?.Poll(link);

    /// <inheritdoc/>
    public override void OnServerReachabilityChanged(Coordinate server, bool reachable) => _endpoint?.OnServerReachabilityChanged(server, reachable);

    /// <inheritdoc/>
    public void OnDropped(in DroppedPacket drop) => _endpoint?.OnDropped(drop);
}
