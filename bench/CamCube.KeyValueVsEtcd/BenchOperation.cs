namespace CamCube.KeyValueVsEtcd;

/// <summary>What a cell's workers do, each on keys of its own.</summary>
internal enum BenchOperation
{
    /// <summary>An unconditional write (one request).</summary>
    Put = 0,

    /// <summary>A read of a key written before (one request; linearizable on both sides).</summary>
    Get = 1,

    /// <summary>A read of the key's version, then a write conditional on it (two requests: the client's optimistic-concurrency cycle).</summary>
    Cas = 2,
}
