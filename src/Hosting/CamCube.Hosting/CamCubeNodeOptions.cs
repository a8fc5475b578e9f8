using CamCube.Runtime;
using CamCube.Transport.Udp;
using Microsoft.Extensions.Configuration;

namespace CamCube.Hosting;

/// <summary>
/// Everything one node needs, bound from the configuration section <see cref="SectionName"/>
/// (appsettings.json, environment variables <c>CAMCUBE__SHAPE</c>, ..., command line
/// <c>--CamCube:Shape=3x3x3</c>): where the node is, how it reaches its neighbours, its key and
/// its timing. Each default is stated here once; <see cref="CamCubeNodeOptionsValidator"/> says
/// exactly which value is wrong when one is.
/// </summary>
public sealed class CamCubeNodeOptions
{
    /// <summary>The configuration section the options are bound from.</summary>
    public const string SectionName = "CamCube";

    /// <summary>The default UDP base port: server i of a one-host cube listens on base + i.</summary>
    public const int DefaultBasePort = 17_000;

    /// <summary>The default address every server of a one-host cube uses.</summary>
    public const string DefaultHost = "127.0.0.1";

    /// <summary>How many heartbeat intervals pass without a frame before a link is declared down, unless <see cref="HeartbeatTimeout"/> says otherwise.</summary>
    public const double HeartbeatTimeoutIntervals = 3.5;

    /// <summary>The longest <see cref="LoopIdleSpin"/>: one second.</summary>
    public static readonly TimeSpan LoopIdleSpinMax = TimeSpan.FromSeconds(1);

    /// <summary>The longest heartbeat interval: one minute.</summary>
    public static readonly TimeSpan HeartbeatIntervalMax = TimeSpan.FromMinutes(1);

    /// <summary>The longest heartbeat timeout: ten minutes.</summary>
    public static readonly TimeSpan HeartbeatTimeoutMax = TimeSpan.FromMinutes(10);

    /// <summary>The largest <see cref="PostedItemsMax"/>: 16,777,216 items.</summary>
    public const int PostedItemsMaxLimit = 16_777_216;

    /// <summary>The largest <see cref="DropNoticesPerSecondMax"/>: 10,000,000 a second.</summary>
    public const int DropNoticesPerSecondMaxLimit = 10_000_000;

    private static readonly NodeOptions s_runtimeDefaults = new();

    /// <summary>Gets or sets the torus, <c>XxYxZ</c> such as <c>3x3x3</c>. Required.</summary>
    public string? Shape { get; set; }

    /// <summary>
    /// Gets or sets this server's coordinate <c>x,y,z</c>, or <c>auto</c>: from a host name ending
    /// in <c>-x-y-z</c> (compose's cc-1-2-0) or in an ordinal <c>-N</c> (a StatefulSet's camcube-13). Required.
    /// </summary>
    public string? Coordinate { get; set; }

    /// <summary>Gets or sets the UDP port of server 0 on one host; server i listens on base + i (default <see cref="DefaultBasePort"/>). Not with <see cref="Peers"/>.</summary>
    public int? BasePort { get; set; }

    /// <summary>Gets or sets the IP address every server of a one-host cube uses (default <see cref="DefaultHost"/>).</summary>
    public string Host { get; set; } = DefaultHost;

    /// <summary>Gets or sets, instead of <see cref="BasePort"/>, how to find every server: a host-name pattern such as <c>cc-{x}-{y}-{z}:7000</c>, a base port, or address+port.</summary>
    public string? Peers { get; set; }

    /// <summary>Gets or sets the cluster key file (32 raw bytes or 64 hex digits); null reads the key from the <c>CAMCUBE_CLUSTER_KEY</c> environment variable.</summary>
    public string? KeyFile { get; set; }

    /// <summary>Gets or sets whether the node may run without a key (loopback addresses only).</summary>
    public bool Insecure { get; set; }

    /// <summary>Gets or sets the Unix socket the node answers control commands on (status, ping, faults, health, stop), or null for none.</summary>
    public string? ControlSocket { get; set; }

    /// <summary>Gets or sets whether the node stops when its standard input closes (a supervisor's pipe: the node ends with its supervisor).</summary>
    public bool ExitWithStdin { get; set; }

    /// <summary>Gets or sets the heartbeat interval on every link.</summary>
    public TimeSpan HeartbeatInterval { get; set; } = s_runtimeDefaults.HeartbeatInterval;

    /// <summary>Gets or sets how long a link may be silent before it is declared down; null: <see cref="HeartbeatTimeoutIntervals"/> heartbeat intervals.</summary>
    public TimeSpan? HeartbeatTimeout { get; set; }

    /// <summary>Gets or sets the limit on every link, in megabits per second (0: none).</summary>
    public int RateLimitMegabitsPerSecond { get; set; }

    /// <summary>Gets or sets how many items one service may have posted to the node's loop and not yet run (<see cref="NodeOptions.PostedItemsMax"/>); past it a post is refused, from 1 to <see cref="PostedItemsMaxLimit"/>.</summary>
    public int PostedItemsMax { get; set; } = s_runtimeDefaults.PostedItemsMax;

    /// <summary>Gets or sets how many drop notices the node sends a second at most (<see cref="NodeOptions.DropNoticesPerSecondMax"/>; 0: none); the rest are counted as suppressed.</summary>
    public int DropNoticesPerSecondMax { get; set; } = s_runtimeDefaults.DropNoticesPerSecondMax;

    /// <summary>Gets or sets the seed of the node's random choices (fault injection, tie breaks).</summary>
    public int Seed { get; set; } = s_runtimeDefaults.Seed;

    /// <summary>Gets or sets the node's event loop; null: <see cref="NodeLoopKind.Udp"/>, or <see cref="NodeLoopKind.Threaded"/> when <see cref="LoopIdleSpin"/> asks for a spin.</summary>
    public NodeLoopKind? Loop { get; set; }

    /// <summary>Gets or sets how long a threaded event loop spins for work before it sleeps (zero: it sleeps at once), at most <see cref="LoopIdleSpinMax"/>.</summary>
    public TimeSpan LoopIdleSpin { get; set; }

    /// <summary>Gets or sets how long a udp loop watches its socket after a turn that sent a datagram, before it blocks (zero: it blocks at once), at most <see cref="UdpEventLoop.SpinAfterSendMax"/>; 50 µs is about two round trips between two nodes on one host.</summary>
    public TimeSpan UdpSpinAfterSend { get; set; } = TimeSpan.FromMicroseconds(50);

    /// <summary>Gets or sets whether runs of datagrams to a neighbour leave in one system call with UDP segmentation offload where the kernel has it.</summary>
    public bool UdpSegmentationOffload { get; set; } = true;

    /// <summary>Gets the heartbeat timeout in force: <see cref="HeartbeatTimeout"/>, else <see cref="HeartbeatTimeoutIntervals"/> intervals.</summary>
    public TimeSpan EffectiveHeartbeatTimeout => HeartbeatTimeout ?? HeartbeatInterval * HeartbeatTimeoutIntervals;

    /// <summary>Gets the loop in force: <see cref="Loop"/>, else a threaded loop when asked to spin, else the udp loop.</summary>
    public NodeLoopKind EffectiveLoop => Loop ?? (LoopIdleSpin > TimeSpan.Zero ? NodeLoopKind.Threaded : NodeLoopKind.Udp);

    /// <summary>Reads the options from <paramref name="configuration"/>'s section <see cref="SectionName"/>, as a host does; <see cref="Validate"/> then reports an unknown key or a value of the wrong type.</summary>
    /// <param name="configuration">The configuration.</param>
    /// <returns>The options.</returns>
    public static CamCubeNodeOptions Bind(IConfiguration configuration)
    {
        ArgumentNullException.ThrowIfNull(configuration);
        var options = new CamCubeNodeOptions();
        CamCubeNodeOptionsBinder.Bind(configuration.GetSection(SectionName), options);
        return options;
    }

    /// <summary>Checks every setting, as the host does when it starts.</summary>
    /// <exception cref="CamCubeConfigurationException">A setting is unknown, missing, of the wrong type or out of range, or the key file is missing; the message is one line that names it.</exception>
    public void Validate() => _ = NodePlacement.Resolve(this);

    /// <summary>Gets or sets what went wrong while binding the section (an unknown key, a value of the wrong type), for the validator to report.</summary>
    internal string? BindingError { get; set; }
}
