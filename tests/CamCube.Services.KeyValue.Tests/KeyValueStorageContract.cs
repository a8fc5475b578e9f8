using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>What every <see cref="IKeyValueStorage"/> promises; each backend's tests inherit it.</summary>
public abstract class KeyValueStorageContract : IDisposable
{
    private readonly Lazy<IKeyValueStorage> _storage;

    protected KeyValueStorageContract() => _storage = new Lazy<IKeyValueStorage>(Create);

    protected IKeyValueStorage Storage => _storage.Value;

    [Fact]
    public void WriteIsKeptOnlyWhenNewerThanTheHeldVersion()
    {
        var key = Key.FromString("a");
        Assert.True(Storage.Apply(key, new StoredValue(2, [2])));
        Assert.False(Storage.Apply(key, new StoredValue(1, [1])));
        Assert.False(Storage.Apply(key, new StoredValue(2, [9])));
        Assert.Equal([2], Storage.Read(key)!.Value);
        Assert.True(Storage.Apply(key, new StoredValue(3, [3])));
        Assert.Equal(3, Storage.Read(key)!.Version);
        Assert.Equal([3], Storage.Read(key)!.Value);
    }

    [Fact]
    public void ApplyAllKeepsEachWriteOnlyWhenNewerAndSaysWhichInOrder()
    {
        var a = Key.FromString("all-a");
        var b = Key.FromString("all-b");
        Storage.Apply(a, new StoredValue(5, [5]));
        var kept = new bool[4];
        Storage.ApplyAll([new(a, new StoredValue(4, [4])), new(b, new StoredValue(1, [1])), new(b, new StoredValue(2, null)), new(a, new StoredValue(6, [6]))], kept);
        Assert.Equal([false, true, true, true], kept);
        Assert.Equal([6], Storage.Read(a)!.Value);
        Assert.True(Storage.Read(b)!.IsDeleted);
        Assert.Equal(2, Storage.Count);
    }

    [Fact]
    public void DeleteIsKeptAsATombstoneSoAnOlderWriteArrivingLateIsRefused()
    {
        var key = Key.FromString("b");
        Storage.Apply(key, new StoredValue(1, [1]));
        Assert.True(Storage.Apply(key, new StoredValue(5, null)));
        Assert.False(Storage.Apply(key, new StoredValue(4, [4])));
        var held = Storage.Read(key)!;
        Assert.True(held.IsDeleted);
        Assert.Equal(5, held.Version);
    }

    [Fact]
    public void KeyNeverWrittenReadsAsNull()
    {
        Assert.Null(Storage.Read(Key.FromString("never")));
        Assert.Equal(0, Storage.Count);
    }

    [Fact]
    public void EmptyValueIsAValueNotADelete()
    {
        var key = Key.FromString("empty");
        Storage.Apply(key, new StoredValue(1, []));
        var held = Storage.Read(key)!;
        Assert.False(held.IsDeleted);
        Assert.Empty(held.Value!);
    }

    [Fact]
    public void VersionsAreListedInKeyBytesOrder()
    {
        var keys = Enumerable.Range(0, 50).Select(i => Key.FromString($"k{i}")).ToArray();
        for (var i = 0; i < keys.Length; i++)
        {
            Storage.Apply(keys[i], new StoredValue(i + 1, i % 3 == 0 ? null : [(byte)i]));
        }

        var listed = Storage.ListVersions();
        var expected = keys.Select((k, i) => new KeyVersion(k, i + 1)).OrderBy(kv => kv.Key.ToString(), StringComparer.Ordinal).ToArray();
        Assert.Equal(expected, listed);
        Assert.Equal(50, Storage.Count);
    }

    [Fact]
    public void PurgeRemovesATombstoneOnlyWhenTheKeyStillHoldsExactlyIt()
    {
        Storage.Apply(Key.FromString("live"), new StoredValue(1, [1]));
        Storage.Apply(Key.FromString("old"), new StoredValue(2, null));
        Storage.Apply(Key.FromString("rewritten"), new StoredValue(3, null));
        Storage.Apply(Key.FromString("rewritten"), new StoredValue(4, [4]));
        Assert.False(Storage.PurgeTombstone(Key.FromString("live"), 1));
        Assert.False(Storage.PurgeTombstone(Key.FromString("old"), 1));
        Assert.False(Storage.PurgeTombstone(Key.FromString("rewritten"), 3));
        Assert.True(Storage.PurgeTombstone(Key.FromString("old"), 2));
        Assert.Null(Storage.Read(Key.FromString("old")));
        Assert.Equal(4, Storage.Read(Key.FromString("rewritten"))!.Version);
        Assert.Equal(1, Storage.Read(Key.FromString("live"))!.Version);
        Assert.Equal(2, Storage.Count);
    }

    [Fact]
    public void PromiseIsKeptOnlyWhenHigherAndListed()
    {
        var a = Key.FromString("promise-a");
        Assert.True(Storage.Promise(a, 5));
        Assert.False(Storage.Promise(a, 5));
        Assert.False(Storage.Promise(a, 4));
        Assert.True(Storage.Promise(a, 7));
        var kept = new bool[3];
        Storage.ApplyAll([StorageWrite.Promise(Key.FromString("promise-b"), 2), StorageWrite.Promise(a, 6), new(a, new StoredValue(9, [9]))], kept);
        Assert.Equal([true, false, true], kept);
        var promises = Storage.ListPromises().OrderBy(p => p.Value).ToArray();
        Assert.Equal([new(Key.FromString("promise-b"), 2), new KeyValuePair<Key, long>(a, 7)], promises);
        Assert.Equal(1, Storage.Count);
    }

    [Fact]
    public void PromiseBelowOneIsRefused() => Assert.Throws<ArgumentOutOfRangeException>(() => Storage.Promise(Key.FromString("z"), 0));

    [Fact]
    public void VersionBelowOneIsRefused()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => Storage.Apply(Key.FromString("z"), new StoredValue(0, [1])));
        Assert.Null(Storage.Read(Key.FromString("z")));
    }

    [Fact]
    public void ConcurrentWritersOfOneKeyLeaveTheHighestVersion()
    {
        var key = Key.FromString("contended");
        var kept = 0;
        Parallel.For(0, 4, writer =>
        {
            for (var version = 1 + writer; version <= 400; version += 4)
            {
                if (Storage.Apply(key, new StoredValue(version, BitConverter.GetBytes(version))))
                {
                    Interlocked.Increment(ref kept);
                }
            }
        });
        var held = Storage.Read(key)!;
        Assert.Equal(400, held.Version);
        Assert.Equal(BitConverter.GetBytes(400), held.Value);
        Assert.InRange(kept, 1, 400);
    }

    public void Dispose()
    {
        if (_storage.IsValueCreated)
        {
            _storage.Value.Dispose();
        }

        Cleanup();
        GC.SuppressFinalize(this);
    }

    protected abstract IKeyValueStorage Create();

    protected virtual void Cleanup()
    {
    }
}
