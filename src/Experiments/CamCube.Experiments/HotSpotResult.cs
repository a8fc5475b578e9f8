namespace CamCube.Experiments;

/// <summary>What a <see cref="HotSpotExperiment"/> measured: the same lookups with base routing and with the hot-spot protocol.</summary>
public sealed record HotSpotResult
{
    /// <summary>Gets the experiment's name, <c>hotspot</c>.</summary>
    public string Experiment { get; init; } = HotSpotExperiment.Name;

    /// <summary>Gets the torus.</summary>
    public required string Shape { get; init; }

    /// <summary>Gets the seed.</summary>
    public required int Seed { get; init; }

    /// <summary>Gets a hash of the two runs' trace hashes (base, then hot spot), 16 hex digits.</summary>
    public required string TraceHash { get; init; }

    /// <summary>Gets the engine events of both runs.</summary>
    public required long Events { get; init; }

    /// <summary>Gets the items stored.</summary>
    public required int Items { get; init; }

    /// <summary>Gets the lookups per run.</summary>
    public required int Lookups { get; init; }

    /// <summary>Gets the Zipf exponent of key popularity.</summary>
    public required double ZipfExponent { get; init; }

    /// <summary>Gets the lookups in flight at once.</summary>
    public required int LookupsInFlight { get; init; }

    /// <summary>Gets the run with base routing (k = 0: every lookup goes to the primary).</summary>
    public required HopStatistics Base { get; init; }

    /// <summary>Gets the run with the hot-spot protocol (k secondary replicas per key).</summary>
    public required HopStatistics HotSpot { get; init; }

    /// <summary>Gets the paper's median hops to a hit with base routing (Fig. 3).</summary>
    public int PaperMedianHopsBase { get; init; } = 15;

    /// <summary>Gets the paper's median hops to a hit with the hot-spot protocol, k = 8 (Fig. 3).</summary>
    public int PaperMedianHopsHotSpot { get; init; } = 7;

    /// <summary>Gets the wall-clock time of both runs, in seconds.</summary>
    public required double WallSeconds { get; init; }

    /// <summary>Gets the peak working set of the process, in bytes.</summary>
    public required long PeakWorkingSetBytes { get; init; }
}
