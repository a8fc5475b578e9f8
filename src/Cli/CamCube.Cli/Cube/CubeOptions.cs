namespace CamCube.Cli.Cube;

/// <summary>What `camcube cube up` was asked for.</summary>
internal sealed record CubeOptions
{
    public required TorusShape Shape { get; init; }

    public int BasePort { get; init; } = Hosting.CamCubeNodeOptions.DefaultBasePort;

    /// <summary>Gets the memcached port of node (0,0,0); node i listens on this + i. Null: no front-ends.</summary>
    public int? MemcachedBasePort { get; init; } = 11_211;

    /// <summary>Gets the port of node (0,0,0)'s key-value front-end; node i listens on this + i. Null: no front-ends (the store still runs).</summary>
    public int? KeyValueBasePort { get; init; } = Services.KeyValue.FrontEnd.KeyValueFrontEndOptions.DefaultPort;

    /// <summary>Gets the store's backend on every node: sqlite (one database per node under the state directory's data) or memory.</summary>
    public string KeyValueStorage { get; init; } = Nodes.KeyValueNodeSettings.Sqlite;

    /// <summary>Gets how the store's messages travel on every node, or null for the nodes' own setting (reliable unless their configuration says otherwise, the same for all).</summary>
    public Messaging.MessageDelivery? KeyValueDelivery { get; init; }

    /// <summary>Gets the largest value the store takes on every node, in bytes, or null for the nodes' own setting (8 KiB unless their configuration says otherwise).</summary>
    public int? KeyValueValueBytesMax { get; init; }

    /// <summary>Gets what the SQLite commits of every node have done when they return, or null for the nodes' own setting (flushed to the device unless their configuration says otherwise).</summary>
    public Services.KeyValue.Storage.SqliteDurability? KeyValueDurability { get; init; }

    /// <summary>Gets t, how long after a server became unreachable the store copies its keys elsewhere, on every node, or null for the nodes' own setting (180 s unless their configuration says otherwise).</summary>
    public TimeSpan? KeyValueReReplicationDelay { get; init; }

    /// <summary>Gets whether every node's cache reads the store beside it (<see cref="Nodes.KeyValueNodeSettings.CacheReadsStore"/>); false: the nodes' own setting (off unless their configuration says otherwise).</summary>
    public bool KeyValueCacheReadsStore { get; init; }

    public bool InProcess { get; init; }

    /// <summary>Gets the node program every node runs (a .dll run with dotnet, or an executable), or null for the built-in node.</summary>
    public string? NodeProgram { get; init; }

    /// <summary>Gets the nodes' heartbeat interval (default: the node's own, <see cref="Hosting.CamCubeNodeOptions.HeartbeatInterval"/>).</summary>
    public TimeSpan HeartbeatInterval { get; init; } = new Hosting.CamCubeNodeOptions().HeartbeatInterval;

    /// <summary>Gets the nodes' link timeout; null: the node's own rule (<see cref="Hosting.CamCubeNodeOptions.HeartbeatTimeoutIntervals"/> intervals).</summary>
    public TimeSpan? HeartbeatTimeout { get; init; }

    /// <summary>Gets an id the detached supervisor reports, so `cube up --detach` knows it is talking to its own cube.</summary>
    public string? Instance { get; init; }
}
