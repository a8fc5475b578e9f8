namespace CamCube.Services;

/// <summary>What became of a packet handed to a route or send call.</summary>
/// <remarks>
/// The ownership rule of every route and send call (<see cref="INodeContext.RouteToKey(Packets.Packet, KeyCoordinate)"/>,
/// <see cref="INodeContext.RouteToServer"/>, <see cref="INodeContext.Reroute"/>, <see cref="INodeContext.SendToNeighbor"/>,
/// <see cref="IExtendedRouter.Route(Packets.Packet, ushort)"/>, <see cref="IExtendedRouter.Continue"/>): the call takes the packet
/// whatever status it returns. After a drop the node has already counted and released it, so the caller
/// never touches the packet again, not even to release it. To send again after a drop, rent a new packet.
/// <para>The multi-target sends (<see cref="INodeContext.Transmit"/>, <see cref="IExtendedRouter.Transmit"/>)
/// follow the same rule for the header each target gets (<see cref="Packets.Packet.Share"/>), but leave the
/// caller its packet: the caller releases it (or, for a packet lent by an upcall, the node does), and the
/// payload's one buffer goes back to its pool after that release and the last target's send or drop,
/// whichever comes last. Until then the payload is read only.</para>
/// </remarks>
public enum RouteStatus
{
    /// <summary>Queued at this node, waiting for a link on a shortest path to poll.</summary>
    Queued = 0,

    /// <summary>This node is the destination: the packet will be delivered here.</summary>
    DeliveredLocally = 1,

    /// <summary>Dropped: the destination server is unreachable.</summary>
    DroppedUnreachable = 2,

    /// <summary>Dropped: the service's queue is full.</summary>
    DroppedQueueFull = 3,

    /// <summary>Dropped: the link is absent or down, or the call was invalid (see the log).</summary>
    DroppedInvalid = 4,
}
