namespace CamCube.KeyValueVsEtcd;

/// <summary>
/// One load worker's view of a store: an unconditional write, a read of a key's version, and a
/// compare-and-swap on a version. Every call is one request to the store (one round trip).
/// </summary>
internal interface IBenchClient : IAsyncDisposable
{
    /// <summary>Writes <paramref name="value"/> under <paramref name="key"/>; completes when the store acknowledged it.</summary>
    /// <param name="key">The key (printable ASCII, no spaces, at most 200 characters).</param>
    /// <param name="value">The value.</param>
    /// <param name="cancellationToken">Cancels the wait.</param>
    /// <returns>A task that completes on the acknowledgement.</returns>
    Task PutAsync(string key, ReadOnlyMemory<byte> value, CancellationToken cancellationToken);

    /// <summary>Reads <paramref name="key"/>; returns its version (etcd: its mod revision), or 0 when it holds no value.</summary>
    /// <param name="key">The key.</param>
    /// <param name="cancellationToken">Cancels the wait.</param>
    /// <returns>The version, and the length of the value read.</returns>
    Task<(long Version, int Length)> GetAsync(string key, CancellationToken cancellationToken);

    /// <summary>Writes <paramref name="value"/> only when the key still holds <paramref name="version"/> (etcd: a transaction comparing the mod revision).</summary>
    /// <param name="key">The key.</param>
    /// <param name="version">The version read before.</param>
    /// <param name="value">The new value.</param>
    /// <param name="cancellationToken">Cancels the wait.</param>
    /// <returns>Whether the write happened.</returns>
    Task<bool> CompareAndSwapAsync(string key, long version, ReadOnlyMemory<byte> value, CancellationToken cancellationToken);
}
