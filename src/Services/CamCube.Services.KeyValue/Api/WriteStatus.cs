namespace CamCube.Services.KeyValue;

/// <summary>How a write or delete ended.</summary>
public enum WriteStatus
{
    /// <summary>The write happened and is on every live replica of the key.</summary>
    Written = 0,

    /// <summary>The condition wanted a value and the key holds none (memcached <c>NOT_FOUND</c>).</summary>
    NotFound = 1,

    /// <summary>The condition wanted no value, or another version, and the key holds a value (memcached <c>NOT_STORED</c> or <c>EXISTS</c>).</summary>
    ConditionFailed = 2,
}
