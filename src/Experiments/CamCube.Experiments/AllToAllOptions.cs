using CamCube.Transport.Simulation;

namespace CamCube.Experiments;

/// <summary>Settings of an <see cref="AllToAllExperiment"/> run (camcubeos 4.2.3, Fig. 5a).</summary>
public sealed record AllToAllOptions
{
    /// <summary>Gets the torus (default 8x8x8, 512 servers).</summary>
    public TorusShape Shape { get; init; } = new(8, 8, 8);

    /// <summary>Gets the seed of the run.</summary>
    public int Seed { get; init; } = 1;

    /// <summary>Gets how long traffic runs before measuring starts, in virtual time (default 5 ms).</summary>
    public TimeSpan WarmUp { get; init; } = TimeSpan.FromMilliseconds(5);

    /// <summary>Gets how long the measurement lasts, in virtual time (default 20 ms).</summary>
    public TimeSpan Measurement { get; init; } = TimeSpan.FromMilliseconds(20);

    /// <summary>Gets the offered load as a fraction of the expected rate (default 1: every server sends at the expected rate).</summary>
    public double Load { get; init; } = 1.0;

    /// <summary>Gets the size of every data frame, header included (default 9,000 bytes: jumbo frames, as in the paper).</summary>
    public int FrameBytes { get; init; } = SimulatedNetworkOptions.JumboMtuBytes;

    /// <summary>Gets the link parameters.</summary>
    public SimulatedNetworkOptions Network { get; init; } = SimulatedNetworkOptions.Default;

    /// <summary>Gets the most packets the workload may have queued at one node (default 64); more are dropped, as a NIC would.</summary>
    public int SendQueuePacketsMax { get; init; } = 64;

    /// <summary>Gets the servers that are failed for the whole run (default none).</summary>
    public IReadOnlyList<Coordinate> FailedServers { get; init; } = [];
}
