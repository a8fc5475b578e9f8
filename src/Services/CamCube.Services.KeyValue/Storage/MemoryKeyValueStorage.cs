namespace CamCube.Services.KeyValue.Storage;

/// <summary>Replicas kept in this process's memory: fast, and lost when the process stops (for tests and caches of the store).</summary>
public sealed class MemoryKeyValueStorage : IKeyValueStorage
{
    private readonly Dictionary<Key, StoredValue> _values = [];
    private readonly Dictionary<Key, long> _promises = [];
    private readonly Lock _lock = new();

    /// <inheritdoc/>
    public bool IsDurable => false;

    /// <inheritdoc/>
    public long Count
    {
        get
        {
            lock (_lock)
            {
                return _values.Count;
            }
        }
    }

    /// <inheritdoc/>
    public StoredValue? Read(Key key)
    {
        lock (_lock)
        {
            return _values.GetValueOrDefault(key);
        }
    }

    /// <inheritdoc/>
    public bool Apply(Key key, StoredValue value)
    {
        ArgumentNullException.ThrowIfNull(value);
        ArgumentOutOfRangeException.ThrowIfLessThan(value.Version, 1, nameof(value));
        lock (_lock)
        {
            if (_values.TryGetValue(key, out var held) && held.Version >= value.Version)
            {
                return false;
            }

            _values[key] = value with { Value = value.Value?.ToArray() };
            return true;
        }
    }

    /// <inheritdoc/>
    public IReadOnlyList<KeyVersion> ListVersions()
    {
        lock (_lock)
        {
            var versions = _values.Select(pair => new KeyVersion(pair.Key, pair.Value.Version)).ToList();
            versions.Sort((a, b) => KeyOrder.Compare(a.Key, b.Key));
            return versions;
        }
    }

    /// <inheritdoc/>
    public bool Promise(Key key, long ballot)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(ballot, 1);
        lock (_lock)
        {
            if (_promises.GetValueOrDefault(key) >= ballot)
            {
                return false;
            }

            _promises[key] = ballot;
            return true;
        }
    }

    /// <inheritdoc/>
    public IReadOnlyList<KeyValuePair<Key, long>> ListPromises()
    {
        lock (_lock)
        {
            return [.. _promises];
        }
    }

    /// <inheritdoc/>
    public bool PurgeTombstone(Key key, long version)
    {
        lock (_lock)
        {
            return _values.TryGetValue(key, out var held) && held.IsDeleted && held.Version == version && _values.Remove(key);
        }
    }

    /// <inheritdoc/>
    public void Dispose()
    {
    }
}
