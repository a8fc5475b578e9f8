namespace CamCube.Experiments;

/// <summary>Settings of a <see cref="FailuresExperiment"/> (camcubeos 4.2.4, Fig. 5b).</summary>
public sealed record FailuresOptions
{
    /// <summary>Gets the torus (default 8x8x8, 512 servers, as in the paper).</summary>
    public TorusShape Shape { get; init; } = new(8, 8, 8);

    /// <summary>Gets the seed: it picks the failed servers and seeds every run.</summary>
    public int Seed { get; init; } = 1;

    /// <summary>Gets the fractions of servers failed, one all-to-all run each (default 0 to 20% in steps of 5%).</summary>
    public IReadOnlyList<double> FailedFractions { get; init; } = [0, 0.05, 0.10, 0.15, 0.20];

    /// <summary>Gets the settings of each all-to-all run; its shape, seed and failed servers are set per run.</summary>
    public AllToAllOptions AllToAll { get; init; } = new();
}
