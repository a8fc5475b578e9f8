namespace CamCube.Cli.Cube;

/// <summary>What `camcube cube up` was asked for.</summary>
internal sealed record CubeOptions
{
    public required TorusShape Shape { get; init; }

    public int BasePort { get; init; } = Hosting.CamCubeNodeOptions.DefaultBasePort;

    /// <summary>Gets the memcached port of node (0,0,0); node i listens on this + i. Null: no front-ends.</summary>
    public int? MemcachedBasePort { get; init; } = 11_211;

    public bool InProcess { get; init; }

    /// <summary>Gets the node program every node runs (a .dll run with dotnet, or an executable), or null for the built-in node.</summary>
    public string? NodeProgram { get; init; }

    public int HeartbeatMilliseconds { get; init; } = 100;

    public int TimeoutMilliseconds { get; init; } = 350;

    /// <summary>Gets an id the detached supervisor reports, so `cube up --detach` knows it is talking to its own cube.</summary>
    public string? Instance { get; init; }
}
