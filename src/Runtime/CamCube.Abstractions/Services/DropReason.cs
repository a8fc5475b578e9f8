namespace CamCube.Services;

/// <summary>Why a node dropped a packet; every drop is counted under one of these.</summary>
public enum DropReason
{
    /// <summary>The frame was too short, of an unknown version or kind, or its lengths or coordinates were wrong.</summary>
    Malformed = 0,

    /// <summary>No service with the frame's service id is registered here.</summary>
    UnknownService = 1,

    /// <summary>The packet had no hops left.</summary>
    HopLimitExceeded = 2,

    /// <summary>The destination server is not reachable.</summary>
    Unreachable = 3,

    /// <summary>A service threw in an upcall for the packet.</summary>
    ServiceFault = 4,

    /// <summary>A service's forward upcall asked for the drop.</summary>
    DroppedByService = 5,

    /// <summary>The service's send queue was full.</summary>
    QueueFull = 6,

    /// <summary>A link the packet was queued for went down and no other link leads on.</summary>
    NoRoute = 7,

    /// <summary>The packet waited longer than its queue's limit.</summary>
    Expired = 8,

    /// <summary>A routing function (F or classify) threw for the packet.</summary>
    RoutingFunctionFault = 9,

    /// <summary>A routing function returned no next key coordinate.</summary>
    EmptyTargetSet = 10,

    /// <summary>The service was deregistered or the node stopped while the packet was queued.</summary>
    Shutdown = 11,
}
