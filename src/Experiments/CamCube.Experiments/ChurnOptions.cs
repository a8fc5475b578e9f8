using CamCube.Testing;
using CamCube.Transport.Simulation;

namespace CamCube.Experiments;

/// <summary>Settings of a <see cref="ChurnExperiment"/> (camcubeos 4.2.5, Fig. 5c).</summary>
public sealed record ChurnOptions
{
    /// <summary>Gets the torus (default 8x8x8, 512 servers, as in the paper).</summary>
    public TorusShape Shape { get; init; } = new(8, 8, 8);

    /// <summary>Gets the seed: it drives the failures, the keys and every node.</summary>
    public int Seed { get; init; } = 1;

    /// <summary>Gets how long traffic and churn run, in virtual time (default 10 minutes, as in the paper).</summary>
    public TimeSpan Duration { get; init; } = TimeSpan.FromMinutes(10);

    /// <summary>Gets the servers that fail and join per second, together (default 2: one failure and one join per second).</summary>
    public double ChurnRatePerSecond { get; init; } = 2;

    /// <summary>Gets the fraction of servers failed at any time, on average (default 0.1).</summary>
    public double FailedFraction { get; init; } = 0.1;

    /// <summary>Gets how many key-routed packets every live server sends per second (default 1,000).</summary>
    public double PacketsPerSecondPerServer { get; init; } = 1_000;

    /// <summary>Gets the payload of every packet, in bytes (default 64).</summary>
    public int PayloadBytes { get; init; } = 64;

    /// <summary>Gets how long a restarted server waits for its links before it sends (default 1 ms).</summary>
    public TimeSpan JoinQuiet { get; init; } = TimeSpan.FromMilliseconds(1);

    /// <summary>Gets how long the run continues without new traffic or churn so that packets in flight land (default 1 s).</summary>
    public TimeSpan Drain { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>Gets what to call on each misdelivery, with the oracle's explanation; may be null.</summary>
    public Action<Misdelivery>? MisdeliveryObserved { get; init; }

    /// <summary>Gets whether the nodes share their link-state searches (default true; see <see cref="SimulatedCubeOptions.ShareRoutingComputations"/>).</summary>
    public bool ShareRoutingComputations { get; init; } = true;

    /// <summary>Gets the link parameters (whether a failure is signalled to neighbours is one of them).</summary>
    public SimulatedNetworkOptions Network { get; init; } = SimulatedNetworkOptions.Default;
}
