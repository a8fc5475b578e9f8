using CamCube.Services.KeyValue;

namespace CamCube.KeyValueVsEtcd.Tests;

/// <summary>
/// A fake <see cref="IKeyValueStore"/> in a dictionary, only to test the driver's bookkeeping
/// (never a result): versions count up per key; conditional writes can be made to fail.
/// </summary>
internal sealed class InMemoryKeyValueStore : IKeyValueStore
{
    private readonly Dictionary<Key, VersionedValue> _values = [];
    private readonly Lock _lock = new();

    /// <summary>Gets or sets a value indicating whether every write conditional on a version is refused, as if another writer got there first.</summary>
    public bool RefuseConditionalWrites { get; set; }

    /// <summary>Gets or sets how many of the next writes fail as timed out, as a store just started may.</summary>
    public int TimeOutWrites { get; set; }

    /// <summary>Gets the number of calls made.</summary>
    public int Calls { get; private set; }

    public Task<VersionedValue?> GetAsync(Key key, CancellationToken cancellationToken = default)
    {
        lock (_lock)
        {
            Calls++;
            return Task.FromResult(_values.GetValueOrDefault(key));
        }
    }

    public Task<WriteOutcome> PutAsync(Key key, ReadOnlyMemory<byte> value, WriteCondition condition = default, CancellationToken cancellationToken = default)
    {
        lock (_lock)
        {
            Calls++;
            if (TimeOutWrites > 0)
            {
                TimeOutWrites--;
                throw new KeyValueStoreException(KeyValueFailure.TimedOut, "timed out");
            }

            var held = _values.GetValueOrDefault(key)?.Version ?? 0;
            if (condition.Kind == WriteConditionKind.IfVersion && (RefuseConditionalWrites || held != condition.Version))
            {
                return Task.FromResult(new WriteOutcome(WriteStatus.ConditionFailed, held));
            }

            _values[key] = new VersionedValue(held + 1, value.ToArray());
            return Task.FromResult(new WriteOutcome(WriteStatus.Written, held + 1));
        }
    }

    public Task<WriteOutcome> DeleteAsync(Key key, WriteCondition condition = default, CancellationToken cancellationToken = default) =>
        throw new NotSupportedException("the driver never deletes");
}
