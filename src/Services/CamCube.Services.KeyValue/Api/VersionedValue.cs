namespace CamCube.Services.KeyValue;

/// <summary>A key's value as a read returns it.</summary>
/// <param name="Version">The version of the write that stored the value: 64-bit, increasing per key.</param>
/// <param name="Value">The value's bytes.</param>
public sealed record VersionedValue(long Version, ReadOnlyMemory<byte> Value);
