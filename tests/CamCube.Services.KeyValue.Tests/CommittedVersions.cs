using System.Globalization;
using CamCube.Services.KeyValue.Storage;
using Microsoft.Data.Sqlite;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>
/// Reads a server's SQLite database through a read-only connection of the test's own while the store
/// runs: SQLite shows another connection only what was committed, so what this reads is on disk, not
/// in a queue that a later commit (or the committer's disposal, which commits what still waits)
/// would write.
/// </summary>
internal static class CommittedVersions
{
    /// <summary>
    /// Puts <paramref name="value"/> under <paramref name="key"/> through <paramref name="store"/> and,
    /// as soon as the put is acknowledged and before anything else is awaited, asserts that each of
    /// the key's three replicas (on a cube of <paramref name="shape"/> with every server up) holds the
    /// acknowledged version committed in its database.
    /// </summary>
    public static async Task<WriteOutcome> PutCommittedAtEveryReplicaAsync(KeyValueService store, Key key, byte[] value, TorusShape shape, IReadOnlyDictionary<Coordinate, SqliteKeyValueStorage> disks)
    {
        var written = await store.PutAsync(key, value);
        Assert.Equal(WriteStatus.Written, written.Status);
        foreach (var server in KeySpace.For(shape).GetServersForKey(key, 3))
        {
            var committed = Read(disks[server].Path, key);
            Assert.True(committed == written.Version, $"{key} was acknowledged at version {written.Version}; {server}'s database holds {committed?.ToString(CultureInfo.InvariantCulture) ?? "no version"} committed");
        }

        return written;
    }

    /// <summary>The version <paramref name="path"/>'s database holds committed for <paramref name="key"/>, or null when it holds none.</summary>
    public static long? Read(string path, Key key)
    {
        var keyBytes = new byte[Key.SizeBytes];
        key.WriteTo(keyBytes);
        using var connection = new SqliteConnection(new SqliteConnectionStringBuilder { DataSource = path, Pooling = false, Mode = SqliteOpenMode.ReadOnly }.ToString());
        connection.Open();
        using var read = connection.CreateCommand();
        read.CommandText = "SELECT version FROM kv WHERE key = $key";
        read.Parameters.Add("$key", SqliteType.Blob).Value = keyBytes;
        return read.ExecuteScalar() is long version ? version : null;
    }
}
