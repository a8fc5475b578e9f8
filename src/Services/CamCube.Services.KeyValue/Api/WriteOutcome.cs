namespace CamCube.Services.KeyValue;

/// <summary>How a write or delete ended, with the key's version after it.</summary>
/// <param name="Status">Whether the write happened, or why not.</param>
/// <param name="Version">The version the write got when it happened; otherwise the version the key holds (0 when it holds no value).</param>
public readonly record struct WriteOutcome(WriteStatus Status, long Version)
{
    /// <summary>Gets a value indicating whether the write happened.</summary>
    public bool Succeeded => Status == WriteStatus.Written;
}
