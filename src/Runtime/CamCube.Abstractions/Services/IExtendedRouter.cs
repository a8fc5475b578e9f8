using CamCube.Packets;

namespace CamCube.Services;

/// <summary>
/// The extended routing service as one service sees it (symbiotic-routing 5): packets go through
/// the key coordinates its F returns, wait in its queues until a link on a shortest path to one of
/// them polls, and never go back out of the link they came in on. Created with
/// <see cref="INodeContext.CreateExtendedRouter"/>; use it on the node's event loop.
/// </summary>
public interface IExtendedRouter
{
    /// <summary>Gets the largest K that F may return.</summary>
    int TargetsMax { get; }

    /// <summary>Gets how many packets wait in this service's queues here.</summary>
    int QueuedCount { get; }

    /// <summary>Adds a queue that <see cref="IRoutingProtocol.Classify"/> may return.</summary>
    /// <exception cref="ArgumentException">The id is taken or negative.</exception>
    void AddQueue(int queueId, RoutingQueueOptions options);

    /// <summary>
    /// Sends a new packet: writes its header (this service, this source, key destination) and
    /// evaluates F for this server's key coordinate with the given <paramref name="w"/>. The router owns the packet afterwards, whatever the status (see <see cref="RouteStatus"/>).
    /// </summary>
    RouteStatus Route(Packet packet, ushort w = 0);

    /// <summary>
    /// Hands a packet back after the service inspected it at a hop: if this server is responsible
    /// for the packet's current destination, F is asked for the next key coordinates; otherwise it
    /// continues towards that destination. The router owns the packet afterwards, whatever the status (see <see cref="RouteStatus"/>).
    /// </summary>
    RouteStatus Continue(Packet packet);

    /// <summary>
    /// The function transmit: sends one copy of <paramref name="packet"/> towards each key coordinate of
    /// <paramref name="targets"/>. The caller keeps <paramref name="packet"/> itself. Returns how many copies were queued.
    /// </summary>
    int Transmit(Packet packet, ReadOnlySpan<KeyCoordinate> targets);

    /// <summary>Gives the node the next packet of this service for <paramref name="link"/>, weighted-fair across the service's queues, or null.</summary>
    Packet? Poll(LinkDirection link);
}
