using CamCube.Services.KeyValue;

namespace CamCube.KeyValueVsEtcd;

/// <summary>
/// A store behind <see cref="IKeyValueStore"/> (the API services on a node use), worker i calling
/// the i-th store modulo their number (one per node); the key is <see cref="Key.FromString"/> of the driver's key.
/// </summary>
/// <param name="name">The name in the result table.</param>
/// <param name="stores">The nodes' stores.</param>
/// <param name="durability">How the store makes an acknowledged write durable.</param>
internal sealed class KeyValueStoreTarget(string name, IReadOnlyList<IKeyValueStore> stores, string durability) : IBenchTarget
{
    /// <inheritdoc/>
    public string Name => name;

    /// <inheritdoc/>
    public string Durability => durability;

    /// <inheritdoc/>
    public IReadOnlyList<int> ServerProcessIds => [];

    /// <inheritdoc/>
    public Task<IBenchClient> ConnectAsync(int worker, CancellationToken cancellationToken) =>
        Task.FromResult<IBenchClient>(new KeyValueStoreBenchClient(stores[worker % stores.Count]));

    /// <inheritdoc/>
    public ValueTask DisposeAsync() => ValueTask.CompletedTask;
}
