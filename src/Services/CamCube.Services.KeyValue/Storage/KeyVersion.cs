namespace CamCube.Services.KeyValue.Storage;

/// <summary>A key and the version a replica holds of it: what two replicas compare to find what one missed.</summary>
/// <param name="Key">The key.</param>
/// <param name="Version">The version held (a tombstone's version for a deleted key).</param>
public readonly record struct KeyVersion(Key Key, long Version);
