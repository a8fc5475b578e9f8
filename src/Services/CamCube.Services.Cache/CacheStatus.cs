namespace CamCube.Services.Cache;

/// <summary>The outcome of a cache operation; the front-end maps each to the memcached reply.</summary>
public enum CacheStatus : byte
{
    /// <summary>The item was found: the response carries its value, flags and CAS unique value.</summary>
    Hit = 1,

    /// <summary>The item was not found (a read).</summary>
    Miss = 2,

    /// <summary>The item was stored (memcached <c>STORED</c>).</summary>
    Stored = 3,

    /// <summary>The condition of add, replace, append or prepend failed (memcached <c>NOT_STORED</c>).</summary>
    NotStored = 4,

    /// <summary>The item changed since its CAS unique value was read (memcached <c>EXISTS</c>).</summary>
    Exists = 5,

    /// <summary>The item does not exist (memcached <c>NOT_FOUND</c>).</summary>
    NotFound = 6,

    /// <summary>The item was deleted (memcached <c>DELETED</c>).</summary>
    Deleted = 7,

    /// <summary>The item's expiry was changed (memcached <c>TOUCHED</c>).</summary>
    Touched = 8,

    /// <summary>The operation succeeded and has nothing else to say (flush: memcached <c>OK</c>).</summary>
    Ok = 9,

    /// <summary>Increment or decrement of an item that is not a decimal number below 2^64.</summary>
    NonNumeric = 10,

    /// <summary>The item is larger than the item size limit.</summary>
    TooLarge = 11,

    /// <summary>The item does not fit the node's memory limit even after eviction.</summary>
    OutOfMemory = 12,

    /// <summary>No answer came within the request timeout (the root may have failed).</summary>
    Timeout = 13,

    /// <summary>The node has too many requests in flight; try again.</summary>
    Busy = 14,

    /// <summary>The key is empty, longer than 250 bytes, or holds a space or control character.</summary>
    InvalidKey = 15,

    /// <summary>
    /// On the wire only, never a request's outcome: the server a write was sent to is no longer its
    /// key's root and did not run it; the requester sends it to the root under a new id.
    /// </summary>
    Moved = 16,
}
