namespace CamCube.Memcached;

/// <summary>The memcached storage commands.</summary>
public enum MemcachedStorageOperation : byte
{
    /// <summary><c>set</c>: store the value whatever the key holds.</summary>
    Set = 1,

    /// <summary><c>add</c>: store only if the key holds no item.</summary>
    Add = 2,

    /// <summary><c>replace</c>: store only if the key holds an item.</summary>
    Replace = 3,

    /// <summary><c>append</c>: add the data after the item's value (flags and expiry unchanged).</summary>
    Append = 4,

    /// <summary><c>prepend</c>: add the data before the item's value (flags and expiry unchanged).</summary>
    Prepend = 5,

    /// <summary><c>cas</c>: store only if the item's cas unique is the one given.</summary>
    Cas = 6,
}
