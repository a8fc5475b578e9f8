using System.Net;
using CamCube.Hosting;
using CamCube.Messaging;
using CamCube.Services.KeyValue;
using CamCube.Services.KeyValue.Storage;
using Microsoft.Extensions.Configuration;

namespace CamCube.Cli.Nodes;

/// <summary>
/// The store's settings in the built-in node, from the configuration section <c>KeyValue</c>:
/// <c>Storage</c> (<c>sqlite</c>, the default: one database per node in <c>Directory</c>, by default
/// the cube's state directory's <c>data</c>; or <c>memory</c>), and the memcached front-end's
/// <c>Port</c> and <c>Host</c> (none without a port); <c>Delivery</c> (<c>reliable</c>, the default, or
/// <c>best-effort</c>: how the store's messages travel, the same on every node of a cube);
/// <c>ValueBytesMax</c> (the largest value in bytes, 8 KiB by default, at most <see cref="ValueBytesLimit"/>);
/// <c>Durability</c> (SQLite only: <c>fsync</c>, the default, flushes each commit to the device;
/// <c>no-fsync</c> writes it to the operating system only, which survives the kill of the process but
/// not the loss of the host); <c>ReReplicationDelay</c> (t: how long after a server became
/// unreachable its keys are copied to the servers that replaced it, 180 s by default, above zero and
/// below <see cref="ReReplicationDelayLimit"/>); <c>CacheReadsStore</c> (the cache beside the store,
/// off by default).
/// </summary>
/// <param name="Storage">The backend: sqlite or memory.</param>
/// <param name="Directory">Where the SQLite database goes.</param>
/// <param name="FrontEnd">Where the front-end listens, or null for none.</param>
/// <param name="CacheReadsStore">Whether the node's cache reads the store's replica on a miss at a key's root and keeps no second copy of it (camcubeos 5.2); off by default, as the cache then serves the store's values under the same names (a cache flush_all or delete does not remove them).</param>
/// <param name="Delivery">How the store's messages travel (<see cref="KeyValueServiceOptions.Delivery"/>); every node of a cube must use the same.</param>
/// <param name="ValueBytesMax">The largest value the store takes, in bytes (<see cref="KeyValueServiceOptions.ValueBytesMax"/>); 0 for the store's default.</param>
/// <param name="Durability">What the SQLite database's commits have done when they return (<see cref="SqliteDurability"/>).</param>
/// <param name="ReReplicationDelay">t (<see cref="KeyValueServiceOptions.ReReplicationDelay"/>), or null for the store's default (180 s).</param>
internal sealed record KeyValueNodeSettings(string Storage, string Directory, IPEndPoint? FrontEnd, bool CacheReadsStore = false, MessageDelivery Delivery = MessageDelivery.Reliable, int ValueBytesMax = 0, SqliteDurability Durability = SqliteDurability.Synced, TimeSpan? ReReplicationDelay = null)
{
    /// <summary>
    /// Gets the longest <c>ReReplicationDelay</c> a node takes, exclusive: the store's tombstone lifetime
    /// (24 h), which must stay well above t (docs/key-value-store.md, "Purge rule").
    /// </summary>
    public static TimeSpan ReReplicationDelayLimit => KeyValueServiceOptions.Default.TombstoneLifetime;

    /// <summary>The largest <c>ValueBytesMax</c> a node takes: a value with its message around it must fit one message of the reliable transport (64 MiB by default).</summary>
    public const int ValueBytesLimit = Services.Reliable.ReliableOptions.DefaultMessageBytesMax - (64 * 1024);

    /// <summary>The configuration section.</summary>
    public const string Section = "KeyValue";

    /// <summary>The SQLite backend's name.</summary>
    public const string Sqlite = "sqlite";

    /// <summary>The memory backend's name.</summary>
    public const string Memory = "memory";

    /// <summary>The name of <see cref="MessageDelivery.Reliable"/> in the settings.</summary>
    public const string Reliable = "reliable";

    /// <summary>The name of <see cref="MessageDelivery.BestEffort"/> in the settings.</summary>
    public const string BestEffort = "best-effort";

    /// <summary>The name of <see cref="SqliteDurability.Synced"/> in the settings.</summary>
    public const string Fsync = "fsync";

    /// <summary>The name of <see cref="SqliteDurability.Written"/> in the settings.</summary>
    public const string NoFsync = "no-fsync";

    /// <summary>Gets the store's settings on the node: its defaults with <see cref="Delivery"/>, <see cref="ValueBytesMax"/> and <see cref="ReReplicationDelay"/>.</summary>
    public KeyValueServiceOptions StoreOptions => KeyValueServiceOptions.Default with
    {
        Delivery = Delivery,
        ValueBytesMax = ValueBytesMax > 0 ? ValueBytesMax : KeyValueServiceOptions.Default.ValueBytesMax,
        ReReplicationDelay = ReReplicationDelay ?? KeyValueServiceOptions.Default.ReReplicationDelay,
    };

    /// <summary>A <c>ReReplicationDelay</c> setting's value: a duration such as <c>00:03:00</c>, above zero and below <see cref="ReReplicationDelayLimit"/>; null when it is not one.</summary>
    public static TimeSpan? ParseReReplicationDelay(string text) =>
        TimeSpan.TryParse(text, System.Globalization.CultureInfo.InvariantCulture, out var delay) && delay > TimeSpan.Zero && delay < ReReplicationDelayLimit ? delay : null;

    /// <summary>A <c>ValueBytesMax</c> setting's value: a whole number of bytes from 1 to <see cref="ValueBytesLimit"/>; null when it is not one.</summary>
    public static int? ParseValueBytesMax(string text) =>
        int.TryParse(text, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var bytes) && bytes is > 0 and <= ValueBytesLimit ? bytes : null;

    /// <summary>The delivery a name stands for (<c>reliable</c> or <c>best-effort</c>, any case); null for another name.</summary>
    public static MessageDelivery? ParseDelivery(string name) => name.ToLowerInvariant() switch
    {
        Reliable => MessageDelivery.Reliable,
        BestEffort => MessageDelivery.BestEffort,
        _ => null,
    };

    /// <summary>The durability a name stands for (<c>fsync</c> or <c>no-fsync</c>, any case); null for another name.</summary>
    public static SqliteDurability? ParseDurability(string name) => name.ToLowerInvariant() switch
    {
        Fsync => SqliteDurability.Synced,
        NoFsync => SqliteDurability.Written,
        _ => null,
    };

    /// <summary>The name of a durability in the settings.</summary>
    public static string NameOf(SqliteDurability durability) => durability == SqliteDurability.Written ? NoFsync : Fsync;

    /// <summary>The name of a delivery in the settings.</summary>
    public static string NameOf(MessageDelivery delivery) => delivery == MessageDelivery.BestEffort ? BestEffort : Reliable;

    /// <summary>Reads and checks the section (and the node's control socket, beside which the database goes by default).</summary>
    /// <exception cref="CamCubeConfigurationException">A setting is not valid; the one-line message names it.</exception>
    public static KeyValueNodeSettings Read(IConfiguration configuration)
    {
        var section = configuration.GetSection(Section);
        var storage = (section["Storage"] ?? Sqlite).ToLowerInvariant();
        if (storage is not (Sqlite or Memory))
        {
            throw new CamCubeConfigurationException($"{Section}:Storage: '{section["Storage"]}' is neither {Sqlite} nor {Memory}.");
        }

        var cacheReadsStore = section["CacheReadsStore"] switch
        {
            null => false,
            var text when bool.TryParse(text, out var value) => value,
            var text => throw new CamCubeConfigurationException($"{Section}:CacheReadsStore: '{text}' is neither true nor false."),
        };
        var delivery = section["Delivery"] is { } deliveryText
            ? ParseDelivery(deliveryText) ?? throw new CamCubeConfigurationException($"{Section}:Delivery: '{deliveryText}' is neither {Reliable} nor {BestEffort}.")
            : MessageDelivery.Reliable;
        var valueBytesMax = section["ValueBytesMax"] is { } valueText
            ? ParseValueBytesMax(valueText) ?? throw new CamCubeConfigurationException($"{Section}:ValueBytesMax: '{valueText}' is not a whole number of bytes from 1 to {ValueBytesLimit}.")
            : 0;
        var durability = section["Durability"] is { } durabilityText
            ? ParseDurability(durabilityText) ?? throw new CamCubeConfigurationException($"{Section}:Durability: '{durabilityText}' is neither {Fsync} nor {NoFsync}.")
            : SqliteDurability.Synced;
        var reReplicationDelay = section["ReReplicationDelay"] is { } delayText
            ? ParseReReplicationDelay(delayText) ?? throw new CamCubeConfigurationException($"{Section}:ReReplicationDelay: '{delayText}' is not a duration above 0 and below {ReReplicationDelayLimit.TotalHours:0} hours (the tombstone lifetime), such as 00:03:00 (hours:minutes:seconds).")
            : (TimeSpan?)null;
        if (durability != SqliteDurability.Synced && storage == Memory)
        {
            throw new CamCubeConfigurationException($"{Section}:Durability: '{section["Durability"]}' is for the {Sqlite} storage; {Memory} keeps nothing on disk.");
        }

        var socket = configuration[$"{CamCubeNodeOptions.SectionName}:{nameof(CamCubeNodeOptions.ControlSocket)}"];
        return new KeyValueNodeSettings(storage, Path.GetFullPath(DefaultDirectory(section, socket)), ReferenceServices.ListenEndPoint(section), cacheReadsStore, delivery, valueBytesMax, durability, reReplicationDelay);
    }

    /// <summary>Where the database goes: <c>Directory</c>; else <c>data</c> beside the node's control socket (the node's own state); else the default state directory's <c>data</c>.</summary>
    private static string DefaultDirectory(IConfigurationSection section, string? socket)
    {
        if (section["Directory"] is { Length: > 0 } configured)
        {
            return configured;
        }

        return Path.Combine(Path.GetDirectoryName(socket) is { Length: > 0 } beside ? beside : Cube.CubeLayout.DefaultDirectory(), "data");
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
            return SqliteKeyValueStorage.Open(path, Durability);
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
