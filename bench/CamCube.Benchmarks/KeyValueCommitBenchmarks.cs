using BenchmarkDotNet.Attributes;
using CamCube.Services.KeyValue.Storage;

namespace CamCube.Benchmarks;

/// <summary>
/// The store's commit path on SQLite (WAL, synchronous = FULL, a temporary directory): one commit of
/// <see cref="WritesPerCommit"/> writes of 128-byte values, as a commit thread runs it when that many
/// writes waited together. The time per commit is about one fsync whatever the batch, so the writes a
/// disk takes per second grow with the batch; the memory diagnoser shows what a commit allocates per
/// write (SQLite parameters and the key's bytes). Run with <c>--filter '*KeyValueCommit*'</c>.
/// </summary>
[MemoryDiagnoser]
public class KeyValueCommitBenchmarks
{
    private readonly List<StorageWrite> _writes = [];
    private bool[] _kept = [];
    private string _directory = null!;
    private SqliteKeyValueStorage _storage = null!;
    private Key[] _keys = [];
    private byte[] _value = [];
    private long _version;

    /// <summary>Gets or sets how many writes share one commit.</summary>
    [Params(1, 16, 64)]
    public int WritesPerCommit { get; set; }

    /// <summary>Opens the database and makes the keys.</summary>
    [GlobalSetup]
    public void Setup()
    {
        _directory = Directory.CreateTempSubdirectory("camcube-kv-commit-bench-").FullName;
        _storage = SqliteKeyValueStorage.Open(Path.Combine(_directory, "kv.db"));
        _keys = [.. Enumerable.Range(0, WritesPerCommit).Select(i => Key.FromString($"bench-{i}"))];
        _value = new byte[128];
        _kept = new bool[WritesPerCommit];
    }

    /// <summary>Commits one batch of writes, each a newer version of its key.</summary>
    [Benchmark]
    public void Commit()
    {
        _writes.Clear();
        _version++;
        foreach (var key in _keys)
        {
            _writes.Add(new StorageWrite(key, new StoredValue(_version, _value)));
        }

        _storage.ApplyAll(_writes, _kept);
    }

    /// <summary>Closes and deletes the database.</summary>
    [GlobalCleanup]
    public void Cleanup()
    {
        _storage.Dispose();
        Directory.Delete(_directory, recursive: true);
    }
}
