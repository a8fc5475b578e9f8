namespace CamCube.Services;

/// <summary>What became of a packet handed to a route or send call. The node owns the packet afterwards in every case.</summary>
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
