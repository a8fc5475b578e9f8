namespace CamCube.Services.KeyValue.Tests.FrontEnd;

/// <summary>
/// A one-process <see cref="IKeyValueStore"/> for the front-end's unit tests: a locked map with one
/// version counter for all keys, answering at once; <see cref="Failure"/> makes every call fail.
/// </summary>
internal sealed class FakeKeyValueStore : IKeyValueStore
{
    private readonly Dictionary<Key, VersionedValue> _values = [];
    private readonly object _gate = new();
    private long _version;

    /// <summary>Gets or sets the failure every call throws, or null for none.</summary>
    public KeyValueFailure? Failure { get; set; }

    /// <summary>Gets the stored bytes and version of a key, or null.</summary>
    public VersionedValue? this[Key key]
    {
        get
        {
            lock (_gate)
            {
                return _values.GetValueOrDefault(key);
            }
        }
    }

    public Task<VersionedValue?> GetAsync(Key key, CancellationToken cancellationToken = default)
    {
        ThrowIfFailing();
        return Task.FromResult(this[key]);
    }

    public Task<WriteOutcome> PutAsync(Key key, ReadOnlyMemory<byte> value, WriteCondition condition = default, CancellationToken cancellationToken = default)
    {
        ThrowIfFailing();
        lock (_gate)
        {
            var outcome = Check(key, condition);
            if (outcome is null)
            {
                var version = ++_version;
                _values[key] = new VersionedValue(version, value.ToArray());
                outcome = new WriteOutcome(WriteStatus.Written, version);
            }

            return Task.FromResult(outcome.Value);
        }
    }

    public Task<WriteOutcome> DeleteAsync(Key key, WriteCondition condition = default, CancellationToken cancellationToken = default)
    {
        ThrowIfFailing();
        lock (_gate)
        {
            var outcome = _values.ContainsKey(key) ? Check(key, condition) : new WriteOutcome(WriteStatus.NotFound, 0);
            if (outcome is null)
            {
                _values.Remove(key);
                outcome = new WriteOutcome(WriteStatus.Written, ++_version);
            }

            return Task.FromResult(outcome.Value);
        }
    }

    /// <summary>Why the condition fails, or null when it holds.</summary>
    private WriteOutcome? Check(Key key, WriteCondition condition)
    {
        var held = _values.GetValueOrDefault(key)?.Version ?? 0;
        return condition.Kind switch
        {
            WriteConditionKind.IfAbsent when held != 0 => new WriteOutcome(WriteStatus.ConditionFailed, held),
            WriteConditionKind.IfPresent or WriteConditionKind.IfVersion when held == 0 => new WriteOutcome(WriteStatus.NotFound, 0),
            WriteConditionKind.IfVersion when held != condition.Version => new WriteOutcome(WriteStatus.ConditionFailed, held),
            _ => null,
        };
    }

    private void ThrowIfFailing()
    {
        if (Failure is { } failure)
        {
            throw new KeyValueStoreException(failure, $"the fake store fails: {failure}");
        }
    }
}
