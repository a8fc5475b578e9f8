namespace CamCube.Services.KeyValue.Storage;

/// <summary>
/// One key's value at one version, as a replica keeps it. A delete is kept as a tombstone (a
/// null <see cref="Value"/>) so that its version still orders it against later and earlier writes.
/// </summary>
/// <param name="Version">The version the key's primary gave this write: 64-bit, increasing per key, never reused.</param>
/// <param name="Value">The value's bytes, or null when the write was a delete. A storage copies the bytes it keeps; a caller must not change the bytes a read returns.</param>
/// <param name="WriteId">The id the front-end gave the write (<see cref="Messages.ClientRequest.WriteId"/>), 0 if none: a front-end that asks again after losing the answer is told the write took effect.</param>
public sealed record StoredValue(long Version, byte[]? Value, ulong WriteId = 0)
{
    /// <summary>Gets a value indicating whether this write deleted the key.</summary>
    public bool IsDeleted => Value is null;
}
