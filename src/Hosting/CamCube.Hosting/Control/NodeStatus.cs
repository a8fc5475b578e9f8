namespace CamCube.Hosting.Control;

/// <summary>The answer to <c>status</c>: where the node is, its links, what it can reach, its traffic and its drops.</summary>
public sealed record NodeStatus : ControlResponse
{
    /// <summary>Gets the node's coordinate, <c>x,y,z</c>.</summary>
    public string Self { get; init; } = "";

    /// <summary>Gets the torus, <c>XxYxZ</c>.</summary>
    public string Shape { get; init; } = "";

    /// <summary>Gets the id of the process the node runs in.</summary>
    public int Pid { get; init; }

    /// <summary>Gets whether the runtime runs.</summary>
    public bool Running { get; init; }

    /// <summary>Gets how long the node has run, in seconds (one decimal).</summary>
    public double UptimeSeconds { get; init; }

    /// <summary>Gets the number of links up.</summary>
    public int LinksUp { get; init; }

    /// <summary>Gets the number of links the node's shape gives it.</summary>
    public int LinkCount { get; init; }

    /// <summary>Gets the links up, by short name (<c>+x</c>, <c>-y</c>, ...).</summary>
    public IReadOnlyList<string> Links { get; init; } = [];

    /// <summary>Gets the number of servers the node can reach, itself included.</summary>
    public long Reachable { get; init; }

    /// <summary>Gets the frames sent on every link together.</summary>
    public long FramesSent { get; init; }

    /// <summary>Gets the frames received on every link together.</summary>
    public long FramesReceived { get; init; }

    /// <summary>Gets the packets the runtime dropped, by reason (reasons with none are left out).</summary>
    public IReadOnlyDictionary<string, long> Dropped { get; init; } = new Dictionary<string, long>();

    /// <summary>Gets the frames the UDP transport refused.</summary>
    public TransportDrops TransportDropped { get; init; } = new();

    /// <summary>Gets the node's UDP endpoint.</summary>
    public string? Udp { get; init; }

    /// <summary>Gets what the fault decorator did.</summary>
    public FaultCounters Faults { get; init; } = new();

    /// <summary>Gets the endpoints of the node's front-ends by name (such as <c>memcached</c>).</summary>
    public IReadOnlyDictionary<string, string> Listeners { get; init; } = new Dictionary<string, string>();
}
