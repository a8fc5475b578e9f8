namespace CamCube.Services.KeyValue;

/// <summary>
/// The replicated key-value store as other services on the node, the store's memcached front-end
/// and the shell see it (camcubeos 5.2): each key's value lives on the r servers of
/// <c>GetServersForKey</c>, every write carries a 64-bit version that increases per key and
/// survives fail-over, and reads and conditional writes are linearizable per key.
/// </summary>
/// <remarks>
/// Calls may be made from any thread. A task that completes successfully means the write is on
/// every live replica of the key (on disk for the disk backend). A call the store cannot complete
/// (the key's servers are unreachable, the time limit passed, the node stopped) fails with
/// <see cref="KeyValueStoreException"/>; a failed write may or may not have taken effect.
/// </remarks>
public interface IKeyValueStore
{
    /// <summary>Reads a key's newest acknowledged value.</summary>
    /// <param name="key">The key.</param>
    /// <param name="cancellationToken">Cancels the wait (the read may still reach the key's primary).</param>
    /// <returns>The value and its version, or null when the key holds no value (never written, or deleted).</returns>
    /// <exception cref="KeyValueStoreException">The store could not answer.</exception>
    Task<VersionedValue?> GetAsync(Key key, CancellationToken cancellationToken = default);

    /// <summary>Writes a key's value when <paramref name="condition"/> holds at the key's primary.</summary>
    /// <param name="key">The key.</param>
    /// <param name="value">The value's bytes; the store copies them before the call returns.</param>
    /// <param name="condition">What must hold for the write to happen; <see cref="WriteCondition.Always"/> by default.</param>
    /// <param name="cancellationToken">Cancels the wait (the write may still take effect).</param>
    /// <returns>Whether the write happened, with the version it got, or why not with the version the key holds.</returns>
    /// <exception cref="KeyValueStoreException">The store could not answer.</exception>
    /// <exception cref="ArgumentException">The value is larger than the store's configured limit.</exception>
    Task<WriteOutcome> PutAsync(Key key, ReadOnlyMemory<byte> value, WriteCondition condition = default, CancellationToken cancellationToken = default);

    /// <summary>Deletes a key's value when <paramref name="condition"/> holds at the key's primary; the delete gets a version like a write.</summary>
    /// <param name="key">The key.</param>
    /// <param name="condition">What must hold for the delete to happen; <see cref="WriteCondition.Always"/> by default.</param>
    /// <param name="cancellationToken">Cancels the wait (the delete may still take effect).</param>
    /// <returns>Whether the delete happened, or why not (<see cref="WriteStatus.NotFound"/> when the key holds no value).</returns>
    /// <exception cref="KeyValueStoreException">The store could not answer.</exception>
    Task<WriteOutcome> DeleteAsync(Key key, WriteCondition condition = default, CancellationToken cancellationToken = default);
}
