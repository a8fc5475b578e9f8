using Microsoft.Data.Sqlite;

namespace CamCube.Services.KeyValue.Storage;

/// <summary>
/// Replicas kept on disk in one SQLite database per server (write-ahead log, synchronous commits):
/// a write <see cref="Apply"/> kept is on disk when the call returns, so killing the process loses
/// none of them.
/// </summary>
public sealed class SqliteKeyValueStorage : IKeyValueStorage
{
    /// <summary>The schema this code writes, kept in the database's <c>user_version</c>.</summary>
    public const int SchemaVersion = 1;

    private readonly SqliteConnection _connection;
    private readonly SqliteCommand _read;
    private readonly SqliteCommand _apply;
    private readonly Lock _lock = new();
    private bool _disposed;

    private SqliteKeyValueStorage(string path, SqliteConnection connection)
    {
        Path = path;
        _connection = connection;
        _read = Command("SELECT version, value FROM kv WHERE key = $key");
        _read.Parameters.Add("$key", SqliteType.Blob);
        _apply = Command(
            "INSERT INTO kv (key, version, value) VALUES ($key, $version, $value) " +
            "ON CONFLICT (key) DO UPDATE SET version = excluded.version, value = excluded.value WHERE excluded.version > kv.version");
        _apply.Parameters.Add("$key", SqliteType.Blob);
        _apply.Parameters.Add("$version", SqliteType.Integer);
        _apply.Parameters.Add("$value", SqliteType.Blob);
    }

    /// <summary>Gets the database file.</summary>
    public string Path { get; }

    /// <inheritdoc/>
    public bool IsDurable => true;

    /// <inheritdoc/>
    public long Count
    {
        get
        {
            lock (_lock)
            {
                using var count = Command("SELECT COUNT(*) FROM kv");
                return (long)count.ExecuteScalar()!;
            }
        }
    }

    /// <summary>Opens (creating when absent) the database at <paramref name="path"/>.</summary>
    /// <param name="path">The database file; its directory must exist.</param>
    /// <returns>The storage, ready for use.</returns>
    /// <exception cref="InvalidOperationException">The file is not a database of this store, or is from a newer version; the message names the file.</exception>
    public static SqliteKeyValueStorage Open(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        var connection = new SqliteConnection(new SqliteConnectionStringBuilder { DataSource = path, Pooling = false }.ToString());
        try
        {
            connection.Open();
            Execute(connection, "PRAGMA journal_mode = WAL");
            Execute(connection, "PRAGMA synchronous = FULL");
            var schema = Scalar(connection, "PRAGMA user_version");
            if (schema > SchemaVersion)
            {
                throw new InvalidOperationException($"Key-value database '{path}' has schema {schema}; this version reads schema {SchemaVersion} and older.");
            }

            Execute(connection, "CREATE TABLE IF NOT EXISTS kv (key BLOB PRIMARY KEY NOT NULL, version INTEGER NOT NULL, value BLOB) WITHOUT ROWID");
            Execute(connection, $"PRAGMA user_version = {SchemaVersion}");
            return new SqliteKeyValueStorage(path, connection);
        }
        catch (SqliteException ex)
        {
            connection.Dispose();
            throw new InvalidOperationException($"Key-value database '{path}' cannot be opened: {ex.Message}", ex);
        }
        catch
        {
            connection.Dispose();
            throw;
        }
    }

    /// <inheritdoc/>
    public StoredValue? Read(Key key)
    {
        lock (_lock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            _read.Parameters["$key"].Value = KeyBytes(key);
            using var reader = _read.ExecuteReader();
            if (!reader.Read())
            {
                return null;
            }

            return new StoredValue(reader.GetInt64(0), reader.IsDBNull(1) ? null : (byte[])reader.GetValue(1));
        }
    }

    /// <inheritdoc/>
    public bool Apply(Key key, StoredValue value)
    {
        ArgumentNullException.ThrowIfNull(value);
        ArgumentOutOfRangeException.ThrowIfLessThan(value.Version, 1, nameof(value));
        lock (_lock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            _apply.Parameters["$key"].Value = KeyBytes(key);
            _apply.Parameters["$version"].Value = value.Version;
            _apply.Parameters["$value"].Value = (object?)value.Value ?? DBNull.Value;
            return _apply.ExecuteNonQuery() == 1;
        }
    }

    /// <summary>Keeps the writes in one transaction: one commit, so one disk write, for all of them.</summary>
    /// <inheritdoc/>
    public void ApplyAll(IReadOnlyList<KeyValuePair<Key, StoredValue>> writes, Span<bool> kept)
    {
        ArgumentNullException.ThrowIfNull(writes);
        if (kept.Length < writes.Count)
        {
            throw new ArgumentException($"{writes.Count} writes need as many results, not {kept.Length}.", nameof(kept));
        }

        lock (_lock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            using var transaction = _connection.BeginTransaction();
            _apply.Transaction = transaction;
            try
            {
                for (var i = 0; i < writes.Count; i++)
                {
                    var (key, value) = (writes[i].Key, writes[i].Value);
                    ArgumentOutOfRangeException.ThrowIfLessThan(value.Version, 1, nameof(writes));
                    _apply.Parameters["$key"].Value = KeyBytes(key);
                    _apply.Parameters["$version"].Value = value.Version;
                    _apply.Parameters["$value"].Value = (object?)value.Value ?? DBNull.Value;
                    kept[i] = _apply.ExecuteNonQuery() == 1;
                }

                transaction.Commit();
            }
            finally
            {
                _apply.Transaction = null;
            }
        }
    }

    /// <inheritdoc/>
    public IReadOnlyList<KeyVersion> ListVersions()
    {
        lock (_lock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            using var list = Command("SELECT key, version FROM kv ORDER BY key");
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
    public long PurgeTombstones(long versionBelow)
    {
        lock (_lock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            using var purge = Command("DELETE FROM kv WHERE value IS NULL AND version < $below");
            purge.Parameters.AddWithValue("$below", versionBelow);
            return purge.ExecuteNonQuery();
        }
    }

    /// <inheritdoc/>
    public void Dispose()
    {
        lock (_lock)
        {
            if (_disposed)
            {
                return;
            }

            _disposed = true;
            _read.Dispose();
            _apply.Dispose();
            _connection.Dispose();
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

    private SqliteCommand Command(string sql)
    {
        var command = _connection.CreateCommand();
        command.CommandText = sql;
        return command;
    }
}
