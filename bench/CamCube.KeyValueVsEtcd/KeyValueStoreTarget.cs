using CamCube.Services.KeyValue;

namespace CamCube.KeyValueVsEtcd;

/// <summary>A store behind <see cref="IKeyValueStore"/> (the API services on a node use); the key is <see cref="Key.FromString"/> of the driver's key.</summary>
/// <param name="name">The name in the result table.</param>
/// <param name="store">The store.</param>
/// <param name="durability">How the store makes an acknowledged write durable.</param>
internal sealed class KeyValueStoreTarget(string name, IKeyValueStore store, string durability) : IBenchTarget
{
    /// <inheritdoc/>
    public string Name => name;

    /// <inheritdoc/>
    public string Durability => durability;

    /// <inheritdoc/>
    public IReadOnlyList<int> ServerProcessIds => [];

    /// <inheritdoc/>
    public Task<IBenchClient> ConnectAsync(int worker, CancellationToken cancellationToken) =>
        Task.FromResult<IBenchClient>(new KeyValueStoreBenchClient(store));

    /// <inheritdoc/>
    public ValueTask DisposeAsync() => ValueTask.CompletedTask;
}
