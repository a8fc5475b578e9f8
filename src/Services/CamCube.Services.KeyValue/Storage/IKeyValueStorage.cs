namespace CamCube.Services.KeyValue.Storage;

/// <summary>
/// Where one server keeps its replicas of keys: a map from key to the newest <see cref="StoredValue"/>
/// it has seen. Writes are applied by version, so a replica that hears writes late, twice or out of
/// order ends in the same state as one that heard them in order. Calls are thread-safe.
/// </summary>
public interface IKeyValueStorage : IDisposable
{
    /// <summary>Gets a value indicating whether an applied write survives the process being killed (it is on disk when <see cref="Apply"/> returns).</summary>
    bool IsDurable { get; }

    /// <summary>Gets the number of keys held, tombstones included.</summary>
    long Count { get; }

    /// <summary>Reads the newest write held for a key.</summary>
    /// <param name="key">The key.</param>
    /// <returns>The write, a tombstone for a deleted key, or null when the key was never written here.</returns>
    StoredValue? Read(Key key);

    /// <summary>Keeps a write when it is newer than what is held for the key.</summary>
    /// <param name="key">The key.</param>
    /// <param name="value">The write; its version must be positive.</param>
    /// <returns>True when the write was kept; false when the key already holds this version or a newer one.</returns>
    /// <exception cref="ArgumentOutOfRangeException">The version is not positive.</exception>
    bool Apply(Key key, StoredValue value);

    /// <summary>
    /// Keeps a promise: the key refuses every ballot below <paramref name="ballot"/> from now on, also
    /// after the process restarts (on disk when the call returns, for the disk backend).
    /// </summary>
    /// <param name="key">The key.</param>
    /// <param name="ballot">The promised ballot; positive.</param>
    /// <returns>True when the promise was kept; false when the key holds this ballot's promise or a higher one.</returns>
    /// <exception cref="ArgumentOutOfRangeException">The ballot is not positive.</exception>
    bool Promise(Key key, long ballot);

    /// <summary>Lists every promise kept (the highest ballot per key), to load them when the server starts.</summary>
    /// <returns>A snapshot taken when the call is made, in no particular order.</returns>
    IReadOnlyList<KeyValuePair<Key, long>> ListPromises();

    /// <summary>
    /// Keeps several writes, promises and tombstone removals at once, each when it is newer than what is held for its
    /// key, as one commit (one disk write for the disk backend: the writes that wait together share
    /// it). By default, <see cref="Apply"/>, <see cref="Promise"/> or <see cref="PurgeTombstone"/> for each.
    /// </summary>
    /// <param name="writes">The writes and promises, applied in order.</param>
    /// <param name="kept">Set to whether each was kept; as long as <paramref name="writes"/>.</param>
    /// <exception cref="ArgumentException"><paramref name="kept"/> is shorter than <paramref name="writes"/>.</exception>
    void ApplyAll(IReadOnlyList<StorageWrite> writes, Span<bool> kept)
    {
        ArgumentNullException.ThrowIfNull(writes);
        if (kept.Length < writes.Count)
        {
            throw new ArgumentException($"{writes.Count} writes need as many results, not {kept.Length}.", nameof(kept));
        }

        for (var i = 0; i < writes.Count; i++)
        {
            var write = writes[i];
            kept[i] = write.Kind switch
            {
                StorageWriteKind.Promise => Promise(write.Key, write.Number),
                StorageWriteKind.PurgeTombstone => PurgeTombstone(write.Key, write.Number),
                _ => Apply(write.Key, write.Value!),
            };
        }
    }

    /// <summary>Lists every key held with its version, in key order, for catching a replica up.</summary>
    /// <returns>A snapshot taken when the call is made.</returns>
    IReadOnlyList<KeyVersion> ListVersions();

    /// <summary>Removes a key's tombstone if the key still holds exactly it (its promise stays).</summary>
    /// <param name="key">The key.</param>
    /// <param name="version">The tombstone's version.</param>
    /// <returns>True when the tombstone went; false when the key holds a value or another version.</returns>
    bool PurgeTombstone(Key key, long version);
}
