using CamCube.Services.KeyValue.Storage;
using Microsoft.Data.Sqlite;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>A memory storage whose next commit of a value fails as a full disk fails SQLite's.</summary>
internal sealed class FailingStorage : IKeyValueStorage
{
    private readonly MemoryKeyValueStorage _inner = new();

    public bool FailNextCommit { get; set; }

    public bool IsDurable => false;

    public long Count => _inner.Count;

    public StoredValue? Read(Key key) => _inner.Read(key);

    public bool Apply(Key key, StoredValue value) => _inner.Apply(key, value);

    public bool Promise(Key key, long ballot) => _inner.Promise(key, ballot);

    public void ApplyAll(IReadOnlyList<StorageWrite> writes, Span<bool> kept)
    {
        var value = false;
        for (var i = 0; i < writes.Count; i++)
        {
            value |= writes[i].Kind == StorageWriteKind.Value;
        }

        if (FailNextCommit && value)
        {
            FailNextCommit = false;
            throw new SqliteException("SQLite Error 13: 'database or disk is full'.", 13);
        }

        ((IKeyValueStorage)_inner).ApplyAll(writes, kept);
    }

    public IReadOnlyList<KeyVersion> ListVersions() => _inner.ListVersions();

    public IReadOnlyList<KeyValuePair<Key, long>> ListPromises() => _inner.ListPromises();

    public IReadOnlyList<KeyVersion> ListTombstones() => _inner.ListTombstones();

    public bool PurgeTombstone(Key key, long version) => _inner.PurgeTombstone(key, version);

    public void Dispose() => _inner.Dispose();
}
