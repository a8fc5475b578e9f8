namespace CamCube.Experiments;

/// <summary>What an <see cref="AllToAllExperiment"/> run measured. Throughputs count frame bytes (CamCube header and payload) delivered to a server, in Gbps.</summary>
public sealed record AllToAllResult
{
    /// <summary>Gets the experiment's name, <c>all-to-all</c>.</summary>
    public string Experiment { get; init; } = AllToAllExperiment.Name;

    /// <summary>Gets the torus, such as <c>8x8x8</c>.</summary>
    public required string Shape { get; init; }

    /// <summary>Gets the seed.</summary>
    public required int Seed { get; init; }

    /// <summary>Gets the hash of the event trace, 16 hex digits.</summary>
    public required string TraceHash { get; init; }

    /// <summary>Gets the number of engine events that ran.</summary>
    public required long Events { get; init; }

    /// <summary>Gets the number of live servers.</summary>
    public required int Servers { get; init; }

    /// <summary>Gets the mean shortest-path hop count between live servers.</summary>
    public required double MeanHops { get; init; }

    /// <summary>Gets the capacity bound per server, live link rate times links over servers and mean hops, in Gbps (6 / mean hops without failures).</summary>
    public required double BoundGbpsPerServer { get; init; }

    /// <summary>Gets the rate each server generates: the bound less the Ethernet overhead of its frames, times the load, in Gbps.</summary>
    public required double ExpectedGbpsPerServer { get; init; }

    /// <summary>Gets the median over servers of the throughput delivered to each, in Gbps.</summary>
    public required double MedianGbpsPerServer { get; init; }

    /// <summary>Gets the lowest throughput delivered to a server, in Gbps.</summary>
    public required double MinGbpsPerServer { get; init; }

    /// <summary>Gets the highest throughput delivered to a server, in Gbps.</summary>
    public required double MaxGbpsPerServer { get; init; }

    /// <summary>Gets how many packets the servers offered.</summary>
    public required long PacketsOffered { get; init; }

    /// <summary>Gets how many packets were delivered.</summary>
    public required long PacketsDelivered { get; init; }

    /// <summary>Gets how many packets the nodes dropped, for any reason (full queues, mostly).</summary>
    public required long PacketsDropped { get; init; }

    /// <summary>Gets how many frames crossed a link.</summary>
    public required long FrameHops { get; init; }

    /// <summary>Gets the virtual time simulated, in seconds.</summary>
    public required double VirtualSeconds { get; init; }

    /// <summary>Gets the wall-clock time the run took, in seconds.</summary>
    public required double WallSeconds { get; init; }

    /// <summary>Gets the peak working set of the process so far, in bytes.</summary>
    public required long PeakWorkingSetBytes { get; init; }
}
