namespace CamCube.Services.KeyValue.Messages;

/// <summary>How a key's primary answered a <see cref="ClientRequest"/>.</summary>
public enum ReplyStatus
{
    /// <summary>Served: the reply holds the value read or the write's outcome.</summary>
    Served = 0,

    /// <summary>The server is not the key's primary in its view (views still converging): ask again.</summary>
    NotPrimary = 1,

    /// <summary>The primary could not reach every replica, or serves no more (minority side), before anything was written: ask again.</summary>
    Unavailable = 2,

    /// <summary>A write reached some replicas but not every one: it may or may not take effect.</summary>
    Indeterminate = 3,

    /// <summary>The primary refused the request (a value over its size limit); the reply's text says why.</summary>
    Rejected = 4,

    /// <summary>
    /// The primary kept the write but could not yet settle it with every replica: ask again under
    /// the same write id (the primary answers from what it kept); the write may have taken effect.
    /// </summary>
    Unsettled = 5,
}
