namespace CamCube.Services.KeyValue.Tests.FrontEnd;

/// <summary>
/// A one-process <see cref="IKeyValueStore"/> for the front-end's unit tests: a locked map with one
/// version counter for all keys, answering at once; <see cref="Failure"/> makes every call fail, and
/// <see cref="HoldReads"/> keeps every read waiting until <see cref="FailHeldReads"/>. It reads into
/// the front-end's reusable gets and runs its reusable sets too (<see cref="IReusableGets"/>,
/// <see cref="IReusableSets"/>), as the replicated store does, and counts them.
/// </summary>
internal sealed class FakeKeyValueStore : IKeyValueStore, IReusableGets, IReusableSets
{
    private readonly Dictionary<Key, VersionedValue> _values = [];
    private readonly object _gate = new();
    private readonly List<TaskCompletionSource<VersionedValue?>> _heldReads = [];
    private readonly List<StoreGet> _heldGets = [];
    private long _version;

    /// <summary>Gets or sets the failure every call throws, or null for none.</summary>
    public KeyValueFailure? Failure { get; set; }

    /// <summary>Gets or sets a value indicating whether reads wait, unanswered, until <see cref="FailHeldReads"/>.</summary>
    public bool HoldReads { get; set; }

    /// <summary>Gets how many reads wait now.</summary>
    public int HeldReadCount
    {
        get
        {
            lock (_gate)
            {
                return _heldReads.Count + _heldGets.Count;
            }
        }
    }

    /// <summary>Gets how many reusable gets were started.</summary>
    public int ReusableGets { get; private set; }

    /// <summary>Gets how many reusable sets were started.</summary>
    public int ReusableSets { get; private set; }

    /// <summary>Gets or sets the most bytes a stored value (the item's header and data) may have.</summary>
    public int ValueBytesMax { get; set; } = int.MaxValue;

    /// <summary>Fails every waiting read with <paramref name="failure"/>, as the store does when its time is up.</summary>
    public void FailHeldReads(KeyValueFailure failure)
    {
        TaskCompletionSource<VersionedValue?>[] held;
        StoreGet[] heldGets;
        lock (_gate)
        {
            held = [.. _heldReads];
            _heldReads.Clear();
            heldGets = [.. _heldGets];
            _heldGets.Clear();
        }

        foreach (var get in heldGets)
        {
            get.Outcome.Failed(new KeyValueStoreException(failure, $"the fake store's held read fails: {failure}"));
        }

        foreach (var read in held)
        {
            read.TrySetException(new KeyValueStoreException(failure, $"the fake store's held read fails: {failure}"));
        }
    }

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
        if (HoldReads)
        {
            var read = new TaskCompletionSource<VersionedValue?>(TaskCreationOptions.RunContinuationsAsynchronously);
            lock (_gate)
            {
                _heldReads.Add(read);
            }

            return read.Task;
        }

        return Task.FromResult(this[key]);
    }

    public bool TryStartGet(StoreGet get)
    {
        lock (_gate)
        {
            ReusableGets++;
            if (HoldReads)
            {
                _heldGets.Add(get);
                return true;
            }
        }

        if (Failure is { } failure)
        {
            get.Outcome.Failed(new KeyValueStoreException(failure, $"the fake store fails: {failure}"));
        }
        else if (this[get.Key] is { } found)
        {
            get.Outcome.Found(found.Version, found.Value.Span);
        }
        else
        {
            get.Outcome.Missing();
        }

        return true;
    }

    public bool TryStartSet(StoreSet set)
    {
        lock (_gate)
        {
            ReusableSets++;
        }

        try
        {
            var put = PutAsync(Key.FromBytes(set.Request.Key), set.Request.Value);
            set.Outcome.Written(put.Result);
        }
        catch (KeyValueStoreException ex)
        {
            set.Outcome.Failed(ex);
        }

        return true;
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
