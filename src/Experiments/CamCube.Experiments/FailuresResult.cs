namespace CamCube.Experiments;

/// <summary>What a <see cref="FailuresExperiment"/> measured: one all-to-all run per failed fraction, the lists aligned with <see cref="FailedFractions"/>.</summary>
public sealed record FailuresResult
{
    /// <summary>Gets the experiment's name, <c>failures</c>.</summary>
    public string Experiment { get; init; } = FailuresExperiment.Name;

    /// <summary>Gets the torus.</summary>
    public required string Shape { get; init; }

    /// <summary>Gets the seed.</summary>
    public required int Seed { get; init; }

    /// <summary>Gets a hash of the runs' trace hashes, in order, 16 hex digits.</summary>
    public required string TraceHash { get; init; }

    /// <summary>Gets the engine events of all runs.</summary>
    public required long Events { get; init; }

    /// <summary>Gets the fractions of servers failed.</summary>
    public required IReadOnlyList<double> FailedFractions { get; init; }

    /// <summary>Gets the rate each live server generated in each run (the capacity bound with those failures, less overhead), in Gbps.</summary>
    public required IReadOnlyList<double> ExpectedGbpsPerServer { get; init; }

    /// <summary>Gets the median throughput delivered per live server in each run, in Gbps.</summary>
    public required IReadOnlyList<double> MedianGbpsPerServer { get; init; }

    /// <summary>Gets how much lower each run's median is than the first run's, in percent (the paper: 38.77% at 20%).</summary>
    public required IReadOnlyList<double> MedianDropPercent { get; init; }

    /// <summary>Gets the full result of each run.</summary>
    public required IReadOnlyList<AllToAllResult> Runs { get; init; }

    /// <summary>Gets the wall-clock time of all runs, in seconds.</summary>
    public required double WallSeconds { get; init; }
}
