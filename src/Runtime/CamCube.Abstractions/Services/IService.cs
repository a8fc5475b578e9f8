using CamCube.Packets;

namespace CamCube.Services;

/// <summary>
/// A service on a CamCube node (camcubeos 3.3). Every upcall runs on the node's event loop, one at
/// a time, so a service needs no locks. Most services derive from <see cref="ServiceBase"/>.
/// </summary>
public interface IService
{
    /// <summary>Gets the 2-byte id that names this service in every frame it sends (1..0xFEFF; 0xFF00 and above are the runtime's).</summary>
    ushort ServiceId { get; }

    /// <summary>Gets a short name for logs and metrics.</summary>
    string Name { get; }

    /// <summary>The service was registered on a node; <paramref name="node"/> is its handle on that node.</summary>
    void OnRegistered(INodeContext node);

    /// <summary>The service was deregistered or the node stopped; its queued packets are released.</summary>
    void OnDeregistered();

    /// <summary>
    /// A routed packet reached its destination here (the KBR deliver upcall). Return true to keep
    /// the packet (the service then owns it); false lets the node release it.
    /// </summary>
    bool OnDeliver(Packet packet);

    /// <summary>
    /// A routed packet is passing through this node (the KBR forward upcall, at every hop but the
    /// source and the destination). The service may read or modify it, or create new packets.
    /// </summary>
    ForwardDecision OnForward(Packet packet);

    /// <summary>A one-hop frame arrived from the neighbour on <paramref name="link"/>. Return true to keep it.</summary>
    bool OnNeighborFrame(Packet packet, LinkDirection link);

    /// <summary>
    /// <paramref name="link"/> has room: give the node a packet for it from the service's own queues,
    /// or null. Called before the node looks at the service's send queue (the packets it routed).
    /// A returned packet becomes the node's, with its header complete.
    /// </summary>
    Packet? Poll(LinkDirection link);

    /// <summary>A link of this node went down or came up.</summary>
    void OnLinkChanged(LinkDirection link, bool up);

    /// <summary>A server became unreachable (failed) or reachable again, as the link-state protocol sees it.</summary>
    void OnServerReachabilityChanged(Coordinate server, bool reachable);
}
