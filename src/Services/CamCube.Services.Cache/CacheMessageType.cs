namespace CamCube.Services.Cache;

/// <summary>The kinds of cache packets (see CacheWireFormat.md).</summary>
internal enum CacheMessageType : byte
{
    /// <summary>A request, routed by the cache's F through a secondary or straight to the primary.</summary>
    Request = 1,

    /// <summary>An answer, routed to a server: the secondary that asked (which keeps a copy), then the requester.</summary>
    Response = 2,

    /// <summary>The root tells a server holding a copy to drop it (a write or delete at the root); repeated until acknowledged or the copy's lease is over.</summary>
    Invalidate = 3,

    /// <summary>flush_all, sent to every server.</summary>
    Flush = 4,

    /// <summary>A server's acknowledgement of a flush.</summary>
    FlushAck = 5,

    /// <summary>A copy holder's acknowledgement of an invalidation: it holds no copy of the key older than the write.</summary>
    InvalidateAck = 6,
}
