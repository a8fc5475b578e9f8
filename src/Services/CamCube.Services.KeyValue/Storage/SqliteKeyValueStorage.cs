using Microsoft.Data.Sqlite;

namespace CamCube.Services.KeyValue.Storage;

/// <summary>
/// Replicas kept on disk in one SQLite database per server (write-ahead log, synchronous commits):
/// a write <see cref="Apply"/> kept is on disk when the call returns, so killing the process loses
/// none of them (flushed to the device as well unless opened with <see cref="SqliteDurability.Written"/>).
/// Writes go through one connection and reads through another, so a read never waits for a commit's
/// disk write and sees only what is committed (SQLite shows a commit to other connections once it
/// is written, and with <see cref="SqliteDurability.Synced"/> flushed).
/// </summary>
public sealed class SqliteKeyValueStorage : IKeyValueStorage
{
    /// <summary>The schema this code writes, kept in the database's <c>user_version</c> (2 added the promises, 3 the writes' ids).</summary>
    public const int SchemaVersion = 3;

    private readonly SqliteConnection _writer;
    private readonly SqliteConnection _reader;
    private readonly SqliteCommand _read;
    private readonly SqliteCommand _apply;
    private readonly SqliteCommand _promise;
    private readonly SqliteCommand _purge;
    private readonly SqliteCommand _begin;
    private readonly SqliteCommand _commit;
    private readonly SqliteCommand _rollback;
    private readonly Lock _writeLock = new();
    private readonly Lock _readLock = new();
    private bool _disposed;

    private SqliteKeyValueStorage(string path, SqliteDurability durability, SqliteConnection writer, SqliteConnection reader)
    {
        Path = path;
        Durability = durability;
        _writer = writer;
        _reader = reader;
        _read = Command(_reader, "SELECT version, value, write_id FROM kv WHERE key = $key", "$key");
        _apply = Command(
            _writer,
            "INSERT INTO kv (key, version, value, write_id) VALUES ($key, $version, $value, $write_id) " +
            "ON CONFLICT (key) DO UPDATE SET version = excluded.version, value = excluded.value, write_id = excluded.write_id WHERE excluded.version > kv.version",
            "$key",
            "$version",
            "$value",
            "$write_id");
        _promise = Command(
            _writer,
            "INSERT INTO promise (key, ballot) VALUES ($key, $ballot) " +
            "ON CONFLICT (key) DO UPDATE SET ballot = excluded.ballot WHERE excluded.ballot > promise.ballot",
            "$key",
            "$ballot");
        _purge = Command(_writer, "DELETE FROM kv WHERE key = $key AND version = $version AND value IS NULL", "$key", "$version");
        _begin = Command(_writer, "BEGIN");
        _commit = Command(_writer, "COMMIT");
        _rollback = Command(_writer, "ROLLBACK");
    }

    /// <summary>Gets the database file.</summary>
    public string Path { get; }

    /// <summary>Gets what a commit has done when it returns: flushed to the device, or written to the operating system.</summary>
    public SqliteDurability Durability { get; }

    /// <inheritdoc/>
    public bool IsDurable => true;

    /// <inheritdoc/>
    public long Count
    {
        get
        {
            lock (_readLock)
            {
                ObjectDisposedException.ThrowIf(_disposed, this);
                return Scalar(_reader, "SELECT COUNT(*) FROM kv");
            }
        }
    }

    /// <summary>
    /// Gets SQLite's <c>synchronous</c> setting on the connection the writes are committed on, as
    /// SQLite reports it (1 NORMAL, 2 FULL): the setting is the connection's own, so no other
    /// connection to the file can tell it.
    /// </summary>
    internal long CommitSynchronous
    {
        get
        {
            lock (_writeLock)
            {
                ObjectDisposedException.ThrowIf(_disposed, this);
                return Scalar(_writer, "PRAGMA synchronous");
            }
        }
    }

    /// <summary>Opens (creating when absent) the database at <paramref name="path"/>.</summary>
    /// <param name="path">The database file; its directory must exist.</param>
    /// <param name="durability">What a commit has done when it returns (by default, flushed to the device).</param>
    /// <returns>The storage, ready for use.</returns>
    /// <exception cref="InvalidOperationException">The file is not a database of this store, or is from a newer version; the message names the file.</exception>
    public static SqliteKeyValueStorage Open(string path, SqliteDurability durability = SqliteDurability.Synced)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        var synchronous = durability switch
        {
            SqliteDurability.Synced => "FULL",
            SqliteDurability.Written => "NORMAL",
            _ => throw new ArgumentOutOfRangeException(nameof(durability), durability, "Durability is Synced or Written."),
        };
        var writer = new SqliteConnection(new SqliteConnectionStringBuilder { DataSource = path, Pooling = false }.ToString());
        SqliteConnection? reader = null;
        try
        {
            writer.Open();
            // Checked before anything is written: another application's database is left as it was.
            var schema = Scalar(writer, "PRAGMA user_version");
            if (schema > SchemaVersion)
            {
                throw new InvalidOperationException($"Key-value database '{path}' has schema {schema}; this version reads schema {SchemaVersion} and older.");
            }

            if (ForeignTable(writer) is { } foreign)
            {
                throw new InvalidOperationException($"Key-value database '{path}' is not a database of this store: {foreign}.");
            }

            Execute(writer, "PRAGMA journal_mode = WAL");
            Execute(writer, $"PRAGMA synchronous = {synchronous}");
            Execute(writer, "CREATE TABLE IF NOT EXISTS kv (key BLOB PRIMARY KEY NOT NULL, version INTEGER NOT NULL, value BLOB, write_id INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID");
            if (Scalar(writer, "SELECT COUNT(*) FROM pragma_table_info('kv') WHERE name = 'write_id'") == 0)
            {
                // A database of schema 1 or 2: its values have no write ids (0).
                Execute(writer, "ALTER TABLE kv ADD COLUMN write_id INTEGER NOT NULL DEFAULT 0");
            }

            Execute(writer, "CREATE TABLE IF NOT EXISTS promise (key BLOB PRIMARY KEY NOT NULL, ballot INTEGER NOT NULL) WITHOUT ROWID");
            Execute(writer, $"PRAGMA user_version = {SchemaVersion}");
            reader = new SqliteConnection(new SqliteConnectionStringBuilder { DataSource = path, Pooling = false, Mode = SqliteOpenMode.ReadOnly }.ToString());
            reader.Open();
            return new SqliteKeyValueStorage(path, durability, writer, reader);
        }
        catch (SqliteException ex)
        {
            reader?.Dispose();
            writer.Dispose();
            throw new InvalidOperationException($"Key-value database '{path}' cannot be opened: {ex.Message}", ex);
        }
        catch
        {
            reader?.Dispose();
            writer.Dispose();
            throw;
        }
    }

    /// <inheritdoc/>
    public StoredValue? Read(Key key)
    {
        lock (_readLock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            _read.Parameters["$key"].Value = KeyBytes(key);
            using var reader = _read.ExecuteReader();
            if (!reader.Read())
            {
                return null;
            }

            return new StoredValue(reader.GetInt64(0), reader.IsDBNull(1) ? null : (byte[])reader.GetValue(1), unchecked((ulong)reader.GetInt64(2)));
        }
    }

    /// <inheritdoc/>
    public bool Apply(Key key, StoredValue value)
    {
        ArgumentNullException.ThrowIfNull(value);
        return ApplyOne(new StorageWrite(key, value));
    }

    /// <inheritdoc/>
    public bool Promise(Key key, long ballot) => ApplyOne(StorageWrite.Promise(key, ballot));

    /// <inheritdoc/>
    public bool PurgeTombstone(Key key, long version) => ApplyOne(StorageWrite.PurgeTombstone(key, version));

    /// <summary>Keeps the writes in one transaction: one commit, so one disk write, for all of them.</summary>
    /// <inheritdoc/>
    public void ApplyAll(IReadOnlyList<StorageWrite> writes, Span<bool> kept)
    {
        ArgumentNullException.ThrowIfNull(writes);
        if (kept.Length < writes.Count)
        {
            throw new ArgumentException($"{writes.Count} writes need as many results, not {kept.Length}.", nameof(kept));
        }

        lock (_writeLock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            if (writes.Count == 1)
            {
                // A lone write commits itself (SQLite's own transaction around one statement): one statement, not three.
                kept[0] = Execute(writes[0]);
                return;
            }

            // BEGIN and COMMIT as prepared statements of their own, run again each batch (BeginTransaction prepares both anew each time).
            _begin.ExecuteNonQuery();
            try
            {
                for (var i = 0; i < writes.Count; i++)
                {
                    kept[i] = Execute(writes[i]);
                }

                _commit.ExecuteNonQuery();
            }
            catch
            {
                if (SQLitePCL.raw.sqlite3_get_autocommit(_writer.Handle) == 0)
                {
                    _rollback.ExecuteNonQuery();
                }

                throw;
            }
        }
    }

    /// <inheritdoc/>
    public IReadOnlyList<KeyVersion> ListVersions()
    {
        lock (_readLock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            using var list = Command(_reader, "SELECT key, version FROM kv ORDER BY key");
            using var reader = list.ExecuteReader();
            var versions = new List<KeyVersion>();
            while (reader.Read())
            {
                versions.Add(new KeyVersion(Key.FromBytes((byte[])reader.GetValue(0)), reader.GetInt64(1)));
            }

            return versions;
        }
    }

    /// <inheritdoc/>
    public IReadOnlyList<KeyVersion> ListTombstones()
    {
        lock (_readLock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            using var list = Command(_reader, "SELECT key, version FROM kv WHERE value IS NULL");
            using var reader = list.ExecuteReader();
            var tombstones = new List<KeyVersion>();
            while (reader.Read())
            {
                tombstones.Add(new KeyVersion(Key.FromBytes((byte[])reader.GetValue(0)), reader.GetInt64(1)));
            }

            return tombstones;
        }
    }

    /// <inheritdoc/>
    public IReadOnlyList<KeyValuePair<Key, long>> ListPromises()
    {
        lock (_readLock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            using var list = Command(_reader, "SELECT key, ballot FROM promise");
            using var reader = list.ExecuteReader();
            var promises = new List<KeyValuePair<Key, long>>();
            while (reader.Read())
            {
                promises.Add(new(Key.FromBytes((byte[])reader.GetValue(0)), reader.GetInt64(1)));
            }

            return promises;
        }
    }

    /// <inheritdoc/>
    public void Dispose()
    {
        lock (_writeLock)
        {
            lock (_readLock)
            {
                if (_disposed)
                {
                    return;
                }

                _disposed = true;
                _read.Dispose();
                _apply.Dispose();
                _promise.Dispose();
                _purge.Dispose();
                _begin.Dispose();
                _commit.Dispose();
                _rollback.Dispose();
                _reader.Dispose();
                _writer.Dispose();
            }
        }
    }

    private static byte[] KeyBytes(Key key)
    {
        var bytes = new byte[Key.SizeBytes];
        key.WriteTo(bytes);
        return bytes;
    }

    private static void Execute(SqliteConnection connection, string sql)
    {
        using var command = connection.CreateCommand();
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }

    private static long Scalar(SqliteConnection connection, string sql)
    {
        using var command = connection.CreateCommand();
        command.CommandText = sql;
        return (long)command.ExecuteScalar()!;
    }

    /// <summary>
    /// What in the database shows it is not one of this store's (null when nothing does): a table
    /// other than <c>kv</c> and <c>promise</c>, or one of those without the columns this store gave it
    /// (<c>kv</c> may lack <c>write_id</c>, as before schema 3). Any schema of this store had only these
    /// tables, so a database the store created holds nothing else, even one whose first open stopped
    /// before it set <c>user_version</c>.
    /// </summary>
    private static string? ForeignTable(SqliteConnection connection)
    {
        using var tables = connection.CreateCommand();
        tables.CommandText = "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name";
        var names = new List<string>();
        using (var reader = tables.ExecuteReader())
        {
            while (reader.Read())
            {
                names.Add(reader.GetString(0));
            }
        }

        foreach (var name in names)
        {
            string[] required = name switch
            {
                "kv" => ["key", "version", "value"],
                "promise" => ["key", "ballot"],
                _ => [],
            };
            if (required.Length == 0)
            {
                return $"it holds a table '{name}'";
            }

            using var columns = connection.CreateCommand();
            columns.CommandText = "SELECT name FROM pragma_table_info($table)";
            columns.Parameters.AddWithValue("$table", name);
            var present = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
            using (var reader = columns.ExecuteReader())
            {
                while (reader.Read())
                {
                    present.Add(reader.GetString(0));
                }
            }

            if (Array.Find(required, column => !present.Contains(column)) is { } missing)
            {
                return $"its table '{name}' has no column '{missing}'";
            }
        }

        return null;
    }

    private static SqliteCommand Command(SqliteConnection connection, string sql, params string[] blobOrIntegerParameters)
    {
        var command = connection.CreateCommand();
        command.CommandText = sql;
        foreach (var name in blobOrIntegerParameters)
        {
            command.Parameters.Add(name, name is "$key" or "$value" ? SqliteType.Blob : SqliteType.Integer);
        }

        return command;
    }

    /// <summary>Runs one item in its own commit.</summary>
    private bool ApplyOne(StorageWrite write)
    {
        lock (_writeLock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            return Execute(write);
        }
    }

    /// <summary>Runs one item in the writer's current transaction (or its own); under the write lock.</summary>
    private bool Execute(StorageWrite write)
    {
        var key = KeyBytes(write.Key);
        switch (write.Kind)
        {
            case StorageWriteKind.Promise:
                _promise.Parameters["$key"].Value = key;
                _promise.Parameters["$ballot"].Value = write.Number;
                return _promise.ExecuteNonQuery() == 1;
            case StorageWriteKind.PurgeTombstone:
                _purge.Parameters["$key"].Value = key;
                _purge.Parameters["$version"].Value = write.Number;
                return _purge.ExecuteNonQuery() == 1;
            default:
                ArgumentOutOfRangeException.ThrowIfLessThan(write.Number, 1, nameof(write));
                _apply.Parameters["$key"].Value = key;
                _apply.Parameters["$version"].Value = write.Number;
                _apply.Parameters["$value"].Value = (object?)write.Value!.Value ?? DBNull.Value;
                _apply.Parameters["$write_id"].Value = unchecked((long)write.Value.WriteId);
                return _apply.ExecuteNonQuery() == 1;
        }
    }
}
