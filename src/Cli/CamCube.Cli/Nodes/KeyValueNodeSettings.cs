using System.Net;
using CamCube.Hosting;
using CamCube.Services.KeyValue.Storage;
using Microsoft.Extensions.Configuration;

namespace CamCube.Cli.Nodes;

/// <summary>
/// The store's settings in the built-in node, from the configuration section <c>KeyValue</c>:
/// <c>Storage</c> (<c>sqlite</c>, the default: one database per node in <c>Directory</c>, by default
/// the cube's state directory's <c>data</c>; or <c>memory</c>), and the memcached front-end's
/// <c>Port</c> and <c>Host</c> (none without a port).
/// </summary>
/// <param name="Storage">The backend: sqlite or memory.</param>
/// <param name="Directory">Where the SQLite database goes.</param>
/// <param name="FrontEnd">Where the front-end listens, or null for none.</param>
internal sealed record KeyValueNodeSettings(string Storage, string Directory, IPEndPoint? FrontEnd)
{
    /// <summary>The configuration section.</summary>
    public const string Section = "KeyValue";

    /// <summary>The SQLite backend's name.</summary>
    public const string Sqlite = "sqlite";

    /// <summary>The memory backend's name.</summary>
    public const string Memory = "memory";

    /// <summary>Reads and checks the section.</summary>
    /// <exception cref="CamCubeConfigurationException">A setting is not valid; the one-line message names it.</exception>
    public static KeyValueNodeSettings Read(IConfigurationSection section)
    {
        var storage = (section["Storage"] ?? Sqlite).ToLowerInvariant();
        if (storage is not (Sqlite or Memory))
        {
            throw new CamCubeConfigurationException($"{Section}:Storage: '{section["Storage"]}' is neither {Sqlite} nor {Memory}.");
        }

        var directory = section["Directory"] is { Length: > 0 } configured ? configured : Path.Combine(Cube.CubeLayout.DefaultDirectory(), "data");
        return new KeyValueNodeSettings(storage, Path.GetFullPath(directory), ReferenceServices.ListenEndPoint(section));
    }

    /// <summary>Opens the node's storage: its own SQLite database in <see cref="Directory"/>, named after the node, or memory.</summary>
    /// <param name="node">The node's name in the database's file name (its coordinate, or its host name for an automatic one).</param>
    /// <exception cref="CamCubeConfigurationException">The database cannot be opened; the message says where and why.</exception>
    public IKeyValueStorage Open(string node)
    {
        if (Storage == Memory)
        {
            return new MemoryKeyValueStorage();
        }

        var path = Path.Combine(Directory, $"keyvalue-{node}.db");
        try
        {
            System.IO.Directory.CreateDirectory(Directory);
            return SqliteKeyValueStorage.Open(path);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or Microsoft.Data.Sqlite.SqliteException)
        {
            throw new CamCubeConfigurationException($"{Section}:Directory: the store's database '{path}' cannot be opened: {ex.Message}");
        }
    }

    /// <summary>The name a node's database is known by: its coordinate <c>x-y-z</c>, or its host name when the coordinate is automatic.</summary>
    public static string NodeName(string? coordinate) =>
        coordinate is null || coordinate.Equals("auto", StringComparison.OrdinalIgnoreCase) ? Dns.GetHostName() : coordinate.Replace(',', '-').Replace(' ', '-');
}
