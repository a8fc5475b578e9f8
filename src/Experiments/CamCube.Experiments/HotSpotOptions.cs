namespace CamCube.Experiments;

/// <summary>Settings of a <see cref="HotSpotExperiment"/> (symbiotic-routing 3.3, Fig. 3).</summary>
public sealed record HotSpotOptions
{
    /// <summary>The paper's items per server: 8,000,000 items on 8,000 servers.</summary>
    public const int ItemsPerServerDefault = 1_000;

    /// <summary>The paper's lookups per server: 800,000 lookups on 8,000 servers.</summary>
    public const int LookupsPerServerDefault = 100;

    /// <summary>Gets the torus; the paper's is 20x20x20 (8,000 servers).</summary>
    public TorusShape Shape { get; init; } = new(20, 20, 20);

    /// <summary>Gets the run's seed: lookups, the nodes' random tie breaks and the engine all derive from it.</summary>
    public int Seed { get; init; } = 1;

    /// <summary>Gets how many items are stored before the lookups (each at the root of its key).</summary>
    public required int Items { get; init; }

    /// <summary>Gets how many lookups are made in each of the two runs (the same ones in both).</summary>
    public required int Lookups { get; init; }

    /// <summary>Gets k, the secondary replicas per key of the hot-spot run (the paper: 8). The base run uses 0.</summary>
    public int K { get; init; } = 8;

    /// <summary>Gets the Zipf exponent of key popularity (the paper: 1.5).</summary>
    public double ZipfExponent { get; init; } = 1.5;

    /// <summary>
    /// Gets how many lookups are in flight at once: lookups go in rounds of this many, each round
    /// after the previous one completed. Copies made in one round serve the next ones.
    /// </summary>
    public int LookupsInFlight { get; init; } = 1_000;

    /// <summary>Checks the settings.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A setting is out of range.</exception>
    public void Validate()
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(Items, 1, nameof(Items));
        ArgumentOutOfRangeException.ThrowIfLessThan(Lookups, 1, nameof(Lookups));
        ArgumentOutOfRangeException.ThrowIfNegative(K, nameof(K));
        ArgumentOutOfRangeException.ThrowIfGreaterThan(K, Services.Cache.HotSpotReplicas.SecondaryCountMax, nameof(K));
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(ZipfExponent, nameof(ZipfExponent));
        ArgumentOutOfRangeException.ThrowIfLessThan(LookupsInFlight, 1, nameof(LookupsInFlight));
    }
}
