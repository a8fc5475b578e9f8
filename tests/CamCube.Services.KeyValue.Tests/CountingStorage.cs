using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>A memory storage that counts its commits (a fake beside the real SQLite and memory backends' own tests).</summary>
internal sealed class CountingStorage : IKeyValueStorage
{
    private readonly MemoryKeyValueStorage _inner = new();

    public int Commits { get; private set; }

    public int WritesCommitted { get; private set; }

    public bool IsDurable => false;

    public long Count => _inner.Count;

    public StoredValue? Read(Key key) => _inner.Read(key);

    public bool Apply(Key key, StoredValue value)
    {
        Commits++;
        WritesCommitted++;
        return _inner.Apply(key, value);
    }

    public void ApplyAll(IReadOnlyList<KeyValuePair<Key, StoredValue>> writes, Span<bool> kept)
    {
        Commits++;
        WritesCommitted += writes.Count;
        for (var i = 0; i < writes.Count; i++)
        {
            kept[i] = _inner.Apply(writes[i].Key, writes[i].Value);
        }
    }

    public IReadOnlyList<KeyVersion> ListVersions() => _inner.ListVersions();

    public long PurgeTombstones(long versionBelow) => _inner.PurgeTombstones(versionBelow);

    public void Dispose() => _inner.Dispose();
}
