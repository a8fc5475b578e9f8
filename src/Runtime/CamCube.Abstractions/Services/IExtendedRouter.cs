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
    /// Sends a new packet from <paramref name="from"/> instead of this server's own key coordinate:
    /// writes its header (this service, this source, key destination <paramref name="from"/>); if this
    /// server is responsible for <paramref name="from"/> (its root), F is asked here with it as the
    /// current coordinate, otherwise the packet goes to its root first, where F is asked (for example
    /// a multicast tree rooted at a key, or a server standing in for a failed one). The router owns the packet afterwards.
    /// </summary>
    RouteStatus Route(Packet packet, KeyCoordinate from);

    /// <summary>
    /// Removes the queue <paramref name="queueId"/> added with <see cref="AddQueue"/>: the packets waiting
    /// in it are dropped (counted as <see cref="DropReason.Shutdown"/>), and a later <see cref="IRoutingProtocol.Classify"/>
    /// that names it drops its packet. Returns false if no such queue was added.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="queueId"/> is 0: the default queue stays.</exception>
    bool RemoveQueue(int queueId);

    /// <summary>
    /// Hands a packet back after the service inspected it at a hop: if this server is responsible
    /// for the packet's current destination, F is asked for the next key coordinates; otherwise it
    /// continues towards that destination. The router owns the packet afterwards, whatever the status (see <see cref="RouteStatus"/>).
    /// </summary>
    RouteStatus Continue(Packet packet);

    /// <summary>
    /// The function transmit: sends <paramref name="packet"/> towards each key coordinate of
    /// <paramref name="targets"/> without a copy per target: each target gets a header of its own over the
    /// one shared payload (<see cref="Packet.Share"/>; see <see cref="INodeContext.Transmit"/>). The caller
    /// keeps <paramref name="packet"/> itself (see <see cref="RouteStatus"/>); its payload is read only until
    /// the last header is sent. Returns how many headers were queued or delivered here.
    /// </summary>
    int Transmit(Packet packet, ReadOnlySpan<KeyCoordinate> targets);

    /// <summary>Gives the node the next packet of this service for <paramref name="link"/>, weighted-fair across the service's queues, or null.</summary>
    Packet? Poll(LinkDirection link);
}
