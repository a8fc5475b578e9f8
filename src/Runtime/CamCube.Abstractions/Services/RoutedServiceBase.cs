using CamCube.Packets;

namespace CamCube.Services;

/// <summary>
/// A base for services with their own routing protocol on the extended routing service
/// (symbiotic-routing 5 and 7): implement <see cref="F"/> (and <see cref="Classify"/> for several
/// queues), inspect packets at every hop by implementing <see cref="IHopInspector"/>, and send with
/// <see cref="IExtendedRouter.Route(Packet, ushort)"/> and <see cref="IExtendedRouter.Transmit"/> on <see cref="Router"/>.
/// </summary>
public abstract class RoutedServiceBase : ServiceBase, IRoutingProtocol
{
    private readonly RoutingQueueOptions _defaultQueue;
    private IExtendedRouter? _router;

    /// <summary>Creates the service with its id, name and default queue.</summary>
    protected RoutedServiceBase(ushort serviceId, string name, RoutingQueueOptions? defaultQueue = null)
        : base(serviceId, name)
    {
        _defaultQueue = defaultQueue ?? RoutingQueueOptions.Default;
    }

    /// <summary>Gets this service's extended router on its node.</summary>
    /// <exception cref="InvalidOperationException">The service is not registered.</exception>
    protected IExtendedRouter Router => _router ?? throw new InvalidOperationException($"Service {Name} is not registered on a node.");

    /// <inheritdoc/>
    public override void OnRegistered(INodeContext node)
    {
        base.OnRegistered(node);
        ArgumentNullException.ThrowIfNull(node);
        _router = node.CreateExtendedRouter(this, _defaultQueue);
    }

    /// <inheritdoc/>
    public override void OnDeregistered()
    {
        _router = null;
        base.OnDeregistered();
    }

    /// <inheritdoc/>
    public abstract int F(Packet packet, KeyCoordinate current, Span<KeyCoordinate> next);

    /// <inheritdoc/>
    public virtual int Classify(Packet packet) => 0;

    /// <inheritdoc/>
    public sealed override bool OnDeliver(Packet packet)
    {
        Handle(packet, responsible: true);
        return true;
    }

    /// <inheritdoc/>
    public sealed override ForwardDecision OnForward(Packet packet)
    {
        Handle(packet, responsible: false);
        return ForwardDecision.Consumed;
    }

    /// <summary>
    /// Offers the router's next packet for <paramref name="link"/>. While a service does not override
    /// this, the node asks the router directly, skipping this call.
    /// </summary>
    /// <param name="link">The link that has room.</param>
    /// <returns>The packet to send on <paramref name="link"/>, or null.</returns>
    public override Packet? Poll(LinkDirection link) => _router?.Poll(link);

    /// <summary>The rectilinear distance between two key coordinates (symbiotic-routing 7: <c>dist</c>).</summary>
    protected int Distance(KeyCoordinate a, KeyCoordinate b) => Node.Shape.Distance(a, b);

    /// <summary>The distance between two key coordinates on one axis (symbiotic-routing 7: <c>distAxis</c>).</summary>
    protected int AxisDistance(KeyCoordinate a, KeyCoordinate b, Axis axis) => Node.Shape.AxisDistance(a, b, axis);

    /// <summary>The neighbouring key coordinate on an axis, keeping <c>w</c> (symbiotic-routing 7: <c>getCoordNeigh</c>).</summary>
    protected KeyCoordinate NeighborKey(KeyCoordinate key, Axis axis, int sign) => Node.Shape.NeighborKey(key, axis, sign);

    /// <summary>Every packet of this service is the service's from here on: kept, dropped, or handed to the router.</summary>
    private void Handle(Packet packet, bool responsible)
    {
        var action = this is IHopInspector inspector ? inspector.OnHop(packet, responsible) : HopAction.Route;
        switch (action)
        {
            case HopAction.Consumed:
                break;
            case HopAction.Drop:
                Node.Drop(packet, DropReason.DroppedByService);
                break;
            default:
                Router.Continue(packet);
                break;
        }
    }
}
