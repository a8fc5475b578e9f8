using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>
/// A storage whose commits wait until the test lets them go, and that records each commit's size
/// (a fake for the committer's unit tests, beside the real SQLite ones).
/// </summary>
internal sealed class BlockingStorage : IKeyValueStorage
{
    private readonly MemoryKeyValueStorage _inner = new();
    private readonly SemaphoreSlim _entered = new(0);
    private readonly SemaphoreSlim _released = new(0);

    public List<int> CommitSizes { get; } = [];

    /// <summary>Gets or sets where each commit's start and end are recorded, under this storage's name, or null.</summary>
    public (List<string> Events, string Name)? Timeline { get; set; }

    public bool IsDurable => true;

    public long Count => _inner.Count;

    /// <summary>Waits until a commit has started and waits to be let go.</summary>
    public void WaitForCommit() => Assert.True(_entered.Wait(TimeSpan.FromSeconds(30)), "No commit started within 30 s.");

    /// <summary>Lets <paramref name="commits"/> commits go.</summary>
    public void Release(int commits = 1) => _released.Release(commits);

    public StoredValue? Read(Key key) => _inner.Read(key);

    public bool Apply(Key key, StoredValue value) => _inner.Apply(key, value);

    public bool Promise(Key key, long ballot) => _inner.Promise(key, ballot);

    public void ApplyAll(IReadOnlyList<StorageWrite> writes, Span<bool> kept)
    {
        Record("enter");
        _entered.Release();
        Assert.True(_released.Wait(TimeSpan.FromSeconds(30)), "The commit was not let go within 30 s.");
        Record("exit");
        lock (CommitSizes)
        {
            CommitSizes.Add(writes.Count);
        }

        ((IKeyValueStorage)_inner).ApplyAll(writes, kept);
    }

    private void Record(string what)
    {
        if (Timeline is { } timeline)
        {
            lock (timeline.Events)
            {
                timeline.Events.Add($"{what} {timeline.Name}");
            }
        }
    }

    public IReadOnlyList<KeyVersion> ListVersions() => _inner.ListVersions();

    public IReadOnlyList<KeyValuePair<Key, long>> ListPromises() => _inner.ListPromises();

    public IReadOnlyList<KeyVersion> ListTombstones() => _inner.ListTombstones();

    public bool PurgeTombstone(Key key, long version) => _inner.PurgeTombstone(key, version);

    public void Dispose()
    {
        _inner.Dispose();
        _entered.Dispose();
        _released.Dispose();
    }
}
