using CamCube.Services.KeyValue;

namespace CamCube.KeyValueVsEtcd;

/// <summary>One worker's calls on an <see cref="IKeyValueStore"/>: put, get, and a put conditional on the version.</summary>
internal sealed class KeyValueStoreBenchClient(IKeyValueStore store) : IBenchClient
{
    /// <inheritdoc/>
    public async Task PutAsync(string key, ReadOnlyMemory<byte> value, CancellationToken cancellationToken)
    {
        var outcome = await store.PutAsync(Key.FromString(key), value, WriteCondition.Always, cancellationToken).ConfigureAwait(false);
        if (!outcome.Succeeded)
        {
            throw new InvalidOperationException($"put {key}: {outcome.Status}");
        }
    }

    /// <inheritdoc/>
    public async Task<(long Version, int Length)> GetAsync(string key, CancellationToken cancellationToken)
    {
        var value = await store.GetAsync(Key.FromString(key), cancellationToken).ConfigureAwait(false);
        return value is null ? (0, 0) : (value.Version, value.Value.Length);
    }

    /// <inheritdoc/>
    public async Task<bool> CompareAndSwapAsync(string key, long version, ReadOnlyMemory<byte> value, CancellationToken cancellationToken)
    {
        var outcome = await store.PutAsync(Key.FromString(key), value, WriteCondition.IfVersion(version), cancellationToken).ConfigureAwait(false);
        return outcome.Succeeded;
    }

    /// <inheritdoc/>
    public ValueTask DisposeAsync() => ValueTask.CompletedTask;
}
