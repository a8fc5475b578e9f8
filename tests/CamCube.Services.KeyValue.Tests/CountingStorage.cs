using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>A memory storage that counts its commits (a fake beside the real SQLite and memory backends' own tests).</summary>
internal sealed class CountingStorage : IKeyValueStorage
{
    private readonly MemoryKeyValueStorage _inner = new();

    public int Commits { get; private set; }

    public int WritesCommitted { get; private set; }

    /// <summary>Gets or sets what runs as each commit begins (a test looks at what else happened by then).</summary>
    public Action? OnCommit { get; set; }

    public bool IsDurable => false;

    public long Count => _inner.Count;

    public StoredValue? Read(Key key) => _inner.Read(key);

    public bool Apply(Key key, StoredValue value)
    {
        Commits++;
        WritesCommitted++;
        return _inner.Apply(key, value);
    }

    public bool Promise(Key key, long ballot) => _inner.Promise(key, ballot);

    /// <summary>Counts a commit that holds at least one value write (a take-over's promises commit on their own).</summary>
    public void ApplyAll(IReadOnlyList<StorageWrite> writes, Span<bool> kept)
    {
        OnCommit?.Invoke();
        var written = WritesCommitted;
        for (var i = 0; i < writes.Count; i++)
        {
            var write = writes[i];
            WritesCommitted += write.Kind == StorageWriteKind.Value ? 1 : 0;
            kept[i] = write.Kind switch
            {
                StorageWriteKind.Value => _inner.Apply(write.Key, write.Value!),
                StorageWriteKind.Promise => _inner.Promise(write.Key, write.Number),
                _ => _inner.PurgeTombstone(write.Key, write.Number),
            };
        }

        Commits += WritesCommitted > written ? 1 : 0;
    }

    public IReadOnlyList<KeyVersion> ListVersions() => _inner.ListVersions();

    public IReadOnlyList<KeyValuePair<Key, long>> ListPromises() => _inner.ListPromises();

    public IReadOnlyList<KeyVersion> ListTombstones() => _inner.ListTombstones();

    public bool PurgeTombstone(Key key, long version) => _inner.PurgeTombstone(key, version);

    public void Dispose() => _inner.Dispose();
}
