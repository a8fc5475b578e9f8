using CamCube.Runtime;
using CamCube.Runtime.Routing;
using CamCube.Transport.Faults;
using CamCube.Transport.Simulation;
using Microsoft.Extensions.Logging;

namespace CamCube.Testing;

/// <summary>Settings of a <see cref="SimulatedCube"/>.</summary>
public sealed record SimulatedCubeOptions
{
    /// <summary>Gets the run's seed: the engine's, from which every random stream of the run derives.</summary>
    public int Seed { get; init; } = 1;

    /// <summary>Gets the link parameters (bandwidth, propagation, MTU, queue length).</summary>
    public SimulatedNetworkOptions Network { get; init; } = SimulatedNetworkOptions.Default;

    /// <summary>Gets the most packets the shared pool keeps for reuse (each is <see cref="SimulatedNetworkOptions.MtuBytes"/> bytes).</summary>
    public int PooledPacketsMax { get; init; } = 65_536;

    /// <summary>
    /// Gets how long <see cref="SimulatedCube.StartAll"/> runs after every link is up, so that the
    /// link-state flood of the start settles and routes are shortest paths (default 20 ms of virtual time).
    /// </summary>
    public TimeSpan SettleTime { get; init; } = TimeSpan.FromMilliseconds(20);

    /// <summary>Gets a function that makes each node's options; if null, defaults without metrics and with <see cref="Seed"/>.</summary>
    public Func<NodeOptions>? NodeOptions { get; init; }

    /// <summary>
    /// Gets whether the nodes share one <see cref="RoutingComputationCache"/>, so that link-state
    /// searches run once per distinct database rather than once per node (default true). Routes are
    /// the same either way; turn it off only to check that.
    /// </summary>
    public bool ShareRoutingComputations { get; init; } = true;

    /// <summary>
    /// Gets the random faults (loss, duplication, delay, reordering) every node's transport applies to
    /// the frames it receives, through a <see cref="FaultInjectingTransport"/> with a random
    /// stream of the run's seed; <see cref="FaultOptions.None"/> (the default) adds no decorator.
    /// </summary>
    public FaultOptions Faults { get; init; } = FaultOptions.None;

    /// <summary>Gets where the nodes log; nowhere if null.</summary>
    public ILoggerFactory? LoggerFactory { get; init; }

    internal NodeOptions CreateNodeOptions() => NodeOptions?.Invoke() ?? new NodeOptions { PublishMetrics = false, Seed = Seed };
}
