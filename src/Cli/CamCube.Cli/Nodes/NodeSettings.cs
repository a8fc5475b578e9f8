using System.Net;
using CamCube.Transport.Udp;

namespace CamCube.Cli.Nodes;

/// <summary>Everything one node process needs: where it is, how to reach its neighbours, its key, its services.</summary>
internal sealed record NodeSettings
{
    /// <summary>The default UDP base port: node i listens on base + i.</summary>
    public const int DefaultBasePort = 17_000;

    public required TorusShape Shape { get; init; }

    public required Coordinate Self { get; init; }

    public required UdpPeerAddressing Addressing { get; init; }

    /// <summary>Gets the cluster key file; null reads the key from the CAMCUBE_CLUSTER_KEY environment variable.</summary>
    public string? KeyFile { get; init; }

    public bool Insecure { get; init; }

    /// <summary>Gets the Unix socket the node answers control commands on (status, ping, stop), or null for none.</summary>
    public string? ControlSocket { get; init; }

    /// <summary>Gets whether the node stops when its standard input closes (a supervisor's pipe: the node ends with its supervisor).</summary>
    public bool ExitWithStdin { get; init; }

    /// <summary>Gets the memcached front-end's endpoint, or null for none.</summary>
    public IPEndPoint? MemcachedEndPoint { get; init; }

    public TimeSpan HeartbeatInterval { get; init; } = TimeSpan.FromMilliseconds(100);

    public TimeSpan HeartbeatTimeout { get; init; } = TimeSpan.FromMilliseconds(350);

    public long RateLimitBitsPerSecond { get; init; }

    public int Seed { get; init; } = 1;

    /// <summary>Gets the node's event loop: by default one thread that also reads the UDP socket.</summary>
    public NodeLoopKind Loop { get; init; } = NodeLoopKind.Udp;

    /// <summary>The default of <see cref="UdpSpinAfterSend"/>: 50 µs, about two round trips between two nodes on one host.</summary>
    public static readonly TimeSpan DefaultUdpSpinAfterSend = TimeSpan.FromMicroseconds(50);

    /// <summary>Gets how long a threaded event loop spins for work before it sleeps (zero: it sleeps at once); see <see cref="Runtime.Loops.ThreadedEventLoop"/>.</summary>
    public TimeSpan LoopIdleSpin { get; init; }

    /// <summary>Gets how long a udp loop watches its socket after a turn that sent a datagram, before it blocks (zero: it blocks at once); see <see cref="UdpEventLoop.SpinAfterSend"/>.</summary>
    public TimeSpan UdpSpinAfterSend { get; init; } = DefaultUdpSpinAfterSend;

    /// <summary>Gets whether runs of datagrams to a neighbour leave in one system call with UDP segmentation offload where the kernel has it (default true); see <see cref="UdpTransportOptions.SegmentationOffload"/>.</summary>
    public bool UdpSegmentationOffload { get; init; } = true;

    /// <summary>Gets the faults injected between the runtime and the network from the start (none by default).</summary>
    public Transport.Faults.FaultOptions Faults { get; init; } = Transport.Faults.FaultOptions.None;

    /// <summary>Loads the cluster key this node was told to use, or null when running insecure.</summary>
    /// <exception cref="InvalidOperationException">No key was found and insecure mode is off.</exception>
    public ClusterKey? LoadKey()
    {
        if (KeyFile is not null)
        {
            return ClusterKey.FromFile(KeyFile);
        }

        var key = ClusterKey.FromEnvironment();
        if (key is null && !Insecure)
        {
            throw new InvalidOperationException($"node {Self}: no cluster key. {ClusterKey.HowToProvide}");
        }

        return key;
    }
}
