using CamCube.Packets;

namespace CamCube.Services;

/// <summary>
/// A convenient base for services: every upcall does nothing by default, and <see cref="Node"/>
/// is the service's handle on the node it runs on.
/// </summary>
public abstract class ServiceBase : IService
{
    private INodeContext? _node;

    /// <summary>Creates a service with its id and name.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The id is 0 or in the runtime's range (0xFF00 and above).</exception>
    protected ServiceBase(ushort serviceId, string name)
    {
        if (serviceId is 0 or >= ServiceIds.RuntimeFirst)
        {
            throw new ArgumentOutOfRangeException(nameof(serviceId), serviceId, $"A service id is from 1 to 0x{ServiceIds.RuntimeFirst - 1:X4}; 0 and 0x{ServiceIds.RuntimeFirst:X4} and above are reserved.");
        }

        ServiceId = serviceId;
        Name = name ?? throw new ArgumentNullException(nameof(name));
    }

    /// <inheritdoc/>
    public ushort ServiceId { get; }

    /// <inheritdoc/>
    public string Name { get; }

    /// <summary>Gets the node this service is registered on.</summary>
    /// <exception cref="InvalidOperationException">The service is not registered.</exception>
    protected INodeContext Node => _node ?? throw new InvalidOperationException($"Service {Name} is not registered on a node.");

    /// <summary>Gets whether the service is registered on a node.</summary>
    protected bool IsRegistered => _node is not null;

    /// <inheritdoc/>
    public virtual void OnRegistered(INodeContext node) => _node = node;

    /// <inheritdoc/>
    public virtual void OnDeregistered() => _node = null;

    /// <inheritdoc/>
    public virtual bool OnDeliver(Packet packet) => false;

    /// <inheritdoc/>
    public virtual ForwardDecision OnForward(Packet packet) => ForwardDecision.Forward;

    /// <inheritdoc/>
    public virtual bool OnNeighborFrame(Packet packet, LinkDirection link) => false;

    /// <inheritdoc/>
    public virtual Packet? Poll(LinkDirection link) => null;

    /// <inheritdoc/>
    public virtual void OnLinkChanged(LinkDirection link, bool up)
    {
    }

    /// <inheritdoc/>
    public virtual void OnServerReachabilityChanged(Coordinate server, bool reachable)
    {
    }
}
