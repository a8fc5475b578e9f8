namespace CamCube.Testing.Freshness;

/// <summary>What a request of a cache history did to its key.</summary>
public enum CacheHistoryOperation
{
    /// <summary>Read the key: a hit with a value, or a miss.</summary>
    Get,

    /// <summary>Wrote a value.</summary>
    Set,

    /// <summary>Removed the item.</summary>
    Delete,
}
