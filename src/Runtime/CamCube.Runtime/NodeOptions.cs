using CamCube.Runtime.Routing;

namespace CamCube.Runtime;

/// <summary>Settings of one node. Every bound has a named maximum with its unit last.</summary>
public sealed class NodeOptions
{
    /// <summary>Gets or sets how often a heartbeat goes out on every link. Default 100 ms.</summary>
    public TimeSpan HeartbeatInterval { get; set; } = TimeSpan.FromMilliseconds(100);

    /// <summary>Gets or sets how long a link may stay silent before it is declared down. Default 350 ms.</summary>
    public TimeSpan HeartbeatTimeout { get; set; } = TimeSpan.FromMilliseconds(350);

    /// <summary>Gets or sets the hop limit of new routed packets; 0 (the default) picks 2 x the torus diameter + 16, at most 255.</summary>
    public byte HopLimit { get; set; }

    /// <summary>Gets or sets the most packets one service may have queued at this node; more are dropped as <c>QueueFull</c>. Default 8,192.</summary>
    public int SendQueuePacketsMax { get; set; } = 8_192;

    /// <summary>
    /// Gets or sets the most items of work other threads may have posted to one service and not yet
    /// run (<c>INodeContext.TryPost</c>, <c>Post</c>, <c>InvokeAsync</c>); a post past it is refused. Default 65,536.
    /// </summary>
    public int PostedItemsMax { get; set; } = 65_536;

    /// <summary>
    /// Gets or sets the most drop notices (service 0xFF03, to the sources of the packets this node drops)
    /// this node sends a second, with a burst of as many; past it a notice is not sent but counted in
    /// <see cref="NodeCounters.DropNoticesSuppressed"/> (its packet is dropped and counted as ever). 0 sends
    /// none. Default 1,000.
    /// </summary>
    public int DropNoticesPerSecondMax { get; set; } = 1_000;

    /// <summary>Gets or sets the seed of the node's random source; the node mixes in its coordinate. Default 1.</summary>
    public int Seed { get; set; } = 1;

    /// <summary>Gets or sets whether the node publishes its counters through System.Diagnostics.Metrics. Default true.</summary>
    public bool PublishMetrics { get; set; } = true;

    /// <summary>Gets or sets the factory the node's meter comes from (a host's <see cref="System.Diagnostics.Metrics.IMeterFactory"/>, which owns and disposes it); null: the node creates its own meter.</summary>
    public System.Diagnostics.Metrics.IMeterFactory? MeterFactory { get; set; }

    /// <summary>
    /// Gets or sets where the node's link-state routing finds searches that other nodes of this
    /// process already ran on the same links (the simulator shares one among all its nodes); null
    /// (the default) keeps them private to the node, as on UDP. The nodes sharing one must run on
    /// one thread and have the same shape.
    /// </summary>
    public RoutingComputationCache? RoutingComputations { get; set; }

    /// <summary>Checks the settings and throws with a message naming the wrong one.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A setting is out of range.</exception>
    public void Validate()
    {
        if (HeartbeatInterval <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(HeartbeatInterval), HeartbeatInterval, "The heartbeat interval must be positive.");
        }

        if (HeartbeatTimeout <= HeartbeatInterval)
        {
            throw new ArgumentOutOfRangeException(nameof(HeartbeatTimeout), HeartbeatTimeout, $"The heartbeat timeout must be longer than the interval ({HeartbeatInterval}).");
        }

        if (PostedItemsMax < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(PostedItemsMax), PostedItemsMax, "A service must be able to have at least one posted item waiting.");
        }

        if (DropNoticesPerSecondMax < 0)
        {
            throw new ArgumentOutOfRangeException(nameof(DropNoticesPerSecondMax), DropNoticesPerSecondMax, "The drop notices a second are 0 (none) or more.");
        }

        if (SendQueuePacketsMax < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(SendQueuePacketsMax), SendQueuePacketsMax, "A send queue must hold at least one packet.");
        }
    }
}
