namespace CamCube.Testing.Freshness;

/// <summary>How a request of a cache history ended.</summary>
public enum CacheHistoryOutcome
{
    /// <summary>No answer, or an error: a write may or may not have taken effect; a read is not checked.</summary>
    Unknown,

    /// <summary>A write was acknowledged (a delete that found no item too: the key held none after it).</summary>
    Acknowledged,

    /// <summary>A read returned a value.</summary>
    Hit,

    /// <summary>A read found no item.</summary>
    Miss,
}
