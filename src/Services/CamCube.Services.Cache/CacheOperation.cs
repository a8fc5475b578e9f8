namespace CamCube.Services.Cache;

/// <summary>An operation on the cache, as the memcached text protocol names it (camcubeos 5.1).</summary>
public enum CacheOperation : byte
{
    /// <summary>Reads an item; may be answered by a secondary replica (hot-spot routing).</summary>
    Get = 1,

    /// <summary>Stores an item unconditionally.</summary>
    Set = 2,

    /// <summary>Stores an item only if the key holds none.</summary>
    Add = 3,

    /// <summary>Stores an item only if the key holds one.</summary>
    Replace = 4,

    /// <summary>Appends data to an existing item.</summary>
    Append = 5,

    /// <summary>Prepends data to an existing item.</summary>
    Prepend = 6,

    /// <summary>Stores an item only if its CAS unique value is still the one given (check and set).</summary>
    Cas = 7,

    /// <summary>Deletes an item.</summary>
    Delete = 8,

    /// <summary>Adds a 64-bit delta to a decimal item, wrapping at 2^64.</summary>
    Increment = 9,

    /// <summary>Subtracts a 64-bit delta from a decimal item, stopping at 0.</summary>
    Decrement = 10,

    /// <summary>Sets an item's expiry time.</summary>
    Touch = 11,

    /// <summary>Sets an item's expiry time and reads it (at the root, since it writes).</summary>
    GetAndTouch = 12,
}
