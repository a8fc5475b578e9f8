using CamCube.Hosting.Control;

namespace CamCube.Cli.Cube;

/// <summary>The answer to the supervisor's <c>status</c>: the cube it runs and each of its nodes.</summary>
internal sealed record SupervisorStatus : ControlResponse
{
    public string Shape { get; init; } = "";

    public int BasePort { get; init; }

    public int? MemcachedBasePort { get; init; }

    /// <summary>Gets the port of node (0,0,0)'s key-value front-end (node i: + i), or null when the cube runs none.</summary>
    public int? KeyValueBasePort { get; init; }

    public bool InProcess { get; init; }

    /// <summary>Gets the node program the cube runs, or null for the built-in node.</summary>
    public string? NodeProgram { get; init; }

    public int SupervisorPid { get; init; }

    /// <summary>Gets the id of a detached supervisor, so `cube up --detach` knows it is talking to its own cube.</summary>
    public string? Instance { get; init; }

    public string StateDirectory { get; init; } = "";

    public IReadOnlyList<SupervisedNode> Nodes { get; init; } = [];
}
