using CamCube.Services.KeyValue.Storage;
using Microsoft.Data.Sqlite;

namespace CamCube.Services.KeyValue.Tests;

public sealed class SqliteKeyValueStorageTests : KeyValueStorageContract
{
    private readonly string _directory = Directory.CreateTempSubdirectory("camcube-kv-").FullName;

    private string DatabasePath => Path.Combine(_directory, "kv.db");

    [Fact]
    public void WritesSurviveClosingAndReopeningTheDatabase()
    {
        Storage.Apply(Key.FromString("a"), new StoredValue(7, [7, 7]));
        Storage.Apply(Key.FromString("b"), new StoredValue(8, null));
        Storage.Dispose();
        using var reopened = SqliteKeyValueStorage.Open(DatabasePath);
        Assert.Equal(new StoredValue(7, [7, 7]).Version, reopened.Read(Key.FromString("a"))!.Version);
        Assert.Equal([7, 7], reopened.Read(Key.FromString("a"))!.Value);
        Assert.True(reopened.Read(Key.FromString("b"))!.IsDeleted);
        Assert.True(reopened.IsDurable);
    }

    [Fact]
    public async Task ReadsWhileAnotherThreadCommitsBatchesSeeOnlyWholeCommittedBatches()
    {
        // Each batch writes version v of 16 keys, first to last, in one transaction; a read that saw
        // the first at v and then the last below v would have seen a batch half done.
        var keys = Enumerable.Range(0, 16).Select(i => Key.FromString($"key {i}")).ToArray();
        const int Batches = 300;
        var writer = Task.Run(() =>
        {
            var kept = new bool[keys.Length];
            for (var version = 1L; version <= Batches; version++)
            {
                var value = BitConverter.GetBytes(version);
                Storage.ApplyAll(keys.Select(key => new StorageWrite(key, new StoredValue(version, value))).ToArray(), kept);
                Assert.All(kept, Assert.True);
            }
        });

        var reads = 0;
        var lastSeen = 0L;
        while (!writer.IsCompleted || reads == 0)
        {
            var first = Storage.Read(keys[0]);
            var last = Storage.Read(keys[^1]);
            reads++;
            if (first is null)
            {
                continue;
            }

            Assert.Equal(first.Version, BitConverter.ToInt64(first.Value));
            Assert.True(first.Version >= lastSeen, $"read version {first.Version} after {lastSeen}");
            Assert.True(last is not null && last.Version >= first.Version, $"first key at {first.Version}, last at {last?.Version}: a batch seen half done");
            lastSeen = first.Version;
        }

        await writer;
        Assert.All(keys, key => Assert.Equal(Batches, Storage.Read(key)!.Version));
    }

    [Fact]
    public void WriteIdsSurviveClosingAndReopeningTheDatabaseAndFollowTheNewestVersion()
    {
        var key = Key.FromString("a");
        Storage.Apply(key, new StoredValue(7, [7], WriteId: ulong.MaxValue - 3));
        Storage.Dispose();
        using (var reopened = SqliteKeyValueStorage.Open(DatabasePath))
        {
            Assert.Equal(ulong.MaxValue - 3, reopened.Read(key)!.WriteId);
            Assert.False(reopened.Apply(key, new StoredValue(6, [6], WriteId: 5)));
            Assert.True(reopened.Apply(key, new StoredValue(8, null, WriteId: 9)));
        }

        using var again = SqliteKeyValueStorage.Open(DatabasePath);
        Assert.Equal(9UL, again.Read(key)!.WriteId);
    }

    [Fact]
    public void DatabaseOfSchemaTwoOpensWithItsValuesAndNoWriteIds()
    {
        Storage.Dispose();
        foreach (var file in Directory.GetFiles(_directory))
        {
            File.Delete(file);
        }

        using (var old = new SqliteConnection($"Data Source={DatabasePath};Pooling=False"))
        {
            old.Open();
            using var create = old.CreateCommand();
            create.CommandText = "CREATE TABLE kv (key BLOB PRIMARY KEY NOT NULL, version INTEGER NOT NULL, value BLOB) WITHOUT ROWID; " +
                "CREATE TABLE promise (key BLOB PRIMARY KEY NOT NULL, ballot INTEGER NOT NULL) WITHOUT ROWID; PRAGMA user_version = 2;";
            create.ExecuteNonQuery();
        }

        using (var migrated = SqliteKeyValueStorage.Open(DatabasePath))
        {
            Assert.True(migrated.Apply(Key.FromString("a"), new StoredValue(3, [3])));
        }

        using var reopened = SqliteKeyValueStorage.Open(DatabasePath);
        var held = reopened.Read(Key.FromString("a"))!;
        Assert.Equal(3, held.Version);
        Assert.Equal(0UL, held.WriteId);
        Assert.True(reopened.Apply(Key.FromString("a"), new StoredValue(4, [4], WriteId: 11)));
        Assert.Equal(11UL, reopened.Read(Key.FromString("a"))!.WriteId);
    }

    [Fact]
    public void PromisesSurviveClosingAndReopeningTheDatabase()
    {
        Storage.Promise(Key.FromString("a"), 12);
        Storage.Dispose();
        using var reopened = SqliteKeyValueStorage.Open(DatabasePath);
        Assert.Equal([new KeyValuePair<Key, long>(Key.FromString("a"), 12)], reopened.ListPromises());
        Assert.False(reopened.Promise(Key.FromString("a"), 11));
    }

    [Fact]
    public void ReadSeesACommitOnlyOnceItIsCommitted()
    {
        var key = Key.FromString("a");
        Storage.Apply(key, new StoredValue(1, [1]));
        using var writer = new SqliteConnection($"Data Source={DatabasePath};Pooling=False");
        writer.Open();
        using var transaction = writer.BeginTransaction();
        using var update = writer.CreateCommand();
        update.Transaction = transaction;
        update.CommandText = "UPDATE kv SET version = 2, value = x'02'";
        Assert.Equal(1, update.ExecuteNonQuery());
        Assert.Equal(1, Storage.Read(key)!.Version);
        transaction.Commit();
        Assert.Equal(2, Storage.Read(key)!.Version);
    }

    [Theory]
    [InlineData(SqliteDurability.Synced, 2)]
    [InlineData(SqliteDurability.Written, 1)]
    public void DatabaseUsesTheWriteAheadLogAndCommitsAtTheSynchronousLevelOfItsDurability(SqliteDurability durability, long synchronous)
    {
        // FULL (2) flushes the log to the device at each commit; NORMAL (1) only writes it to the operating system.
        var path = Path.Combine(_directory, $"{durability}.db");
        using var storage = SqliteKeyValueStorage.Open(path, durability);
        Assert.True(storage.Apply(Key.FromString("a"), new StoredValue(1, [1])));

        Assert.Equal(durability, storage.Durability);
        Assert.Equal(synchronous, storage.CommitSynchronous);
        using var connection = new SqliteConnection($"Data Source={path};Pooling=False");
        connection.Open();
        using var mode = connection.CreateCommand();
        mode.CommandText = "PRAGMA journal_mode";
        Assert.Equal("wal", (string)mode.ExecuteScalar()!);
        Assert.True(File.Exists(path + "-wal"));
    }

    [Fact]
    public void DatabaseOpenedWithoutADurabilityFlushesEveryCommitToTheDevice()
    {
        var storage = Assert.IsType<SqliteKeyValueStorage>(Storage);

        Assert.Equal(SqliteDurability.Synced, storage.Durability);
        Assert.Equal(2, storage.CommitSynchronous);
    }

    [Fact]
    public void FileThatIsNotADatabaseIsRefusedWithItsName()
    {
        var path = Path.Combine(_directory, "garbage.db");
        File.WriteAllBytes(path, [.. Enumerable.Repeat((byte)0x5A, 4096)]);
        var error = Assert.Throws<InvalidOperationException>(() => SqliteKeyValueStorage.Open(path));
        Assert.Contains($"Key-value database '{path}' cannot be opened", error.Message, StringComparison.Ordinal);
        Assert.Equal(4096, new FileInfo(path).Length);
    }

    [Theory]
    [InlineData("CREATE TABLE kv (name TEXT PRIMARY KEY, data TEXT)")]
    [InlineData("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")]
    public void DatabaseOfAnotherApplicationIsRefusedWithItsNameAndLeftAsItWas(string table)
    {
        var path = Path.Combine(_directory, "foreign.db");
        using (var connection = new SqliteConnection($"Data Source={path};Pooling=False"))
        {
            connection.Open();
            using var create = connection.CreateCommand();
            create.CommandText = table;
            create.ExecuteNonQuery();
        }

        var error = Assert.Throws<InvalidOperationException>(() => SqliteKeyValueStorage.Open(path));
        Assert.Contains($"Key-value database '{path}' is not a database of this store", error.Message, StringComparison.Ordinal);
        using var check = new SqliteConnection($"Data Source={path};Pooling=False;Mode=ReadOnly");
        check.Open();
        using var query = check.CreateCommand();
        query.CommandText = "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name)";
        Assert.Equal(table.Split(' ')[2], query.ExecuteScalar());
        query.CommandText = "SELECT (SELECT user_version FROM pragma_user_version) || ',' || (SELECT journal_mode FROM pragma_journal_mode) || ',' || (SELECT COUNT(*) FROM pragma_table_info('kv') WHERE name = 'write_id')";
        Assert.Equal("0,delete,0", query.ExecuteScalar());
    }

    [Fact]
    public void DatabaseOfANewerSchemaIsRefused()
    {
        var path = Path.Combine(_directory, "newer.db");
        using (var connection = new SqliteConnection($"Data Source={path};Pooling=False"))
        {
            connection.Open();
            using var set = connection.CreateCommand();
            set.CommandText = $"PRAGMA user_version = {SqliteKeyValueStorage.SchemaVersion + 1}";
            set.ExecuteNonQuery();
        }

        var error = Assert.Throws<InvalidOperationException>(() => SqliteKeyValueStorage.Open(path));
        Assert.Contains($"has schema {SqliteKeyValueStorage.SchemaVersion + 1}", error.Message, StringComparison.Ordinal);
    }

    protected override IKeyValueStorage Create() => SqliteKeyValueStorage.Open(DatabasePath);

    protected override void Cleanup() => Directory.Delete(_directory, recursive: true);
}
