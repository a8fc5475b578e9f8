namespace CamCube.Experiments;

/// <summary>What a <see cref="ChurnExperiment"/> measured.</summary>
public sealed record ChurnResult
{
    /// <summary>Gets the experiment's name, <c>churn</c>.</summary>
    public string Experiment { get; init; } = ChurnExperiment.Name;

    /// <summary>Gets the torus.</summary>
    public required string Shape { get; init; }

    /// <summary>Gets the seed.</summary>
    public required int Seed { get; init; }

    /// <summary>Gets the hash of the event trace, 16 hex digits.</summary>
    public required string TraceHash { get; init; }

    /// <summary>Gets the number of engine events that ran.</summary>
    public required long Events { get; init; }

    /// <summary>Gets the servers failing and joining per second.</summary>
    public required double ChurnRatePerSecond { get; init; }

    /// <summary>Gets how long a failed server stays down, in seconds: failed fraction x servers / failure rate.</summary>
    public required double FailureDurationSeconds { get; init; }

    /// <summary>Gets the virtual time of traffic and churn, in seconds.</summary>
    public required double DurationSeconds { get; init; }

    /// <summary>Gets how many servers failed during the run (the initially failed ones included).</summary>
    public required int Failures { get; init; }

    /// <summary>Gets how many servers rejoined during the run.</summary>
    public required int Joins { get; init; }

    /// <summary>Gets the time-averaged fraction of servers failed.</summary>
    public required double MeanFailedFraction { get; init; }

    /// <summary>Gets how many key-routed packets live servers sent.</summary>
    public required long Sent { get; init; }

    /// <summary>Gets how many were delivered to a server (rightly or not).</summary>
    public required long Delivered { get; init; }

    /// <summary>Gets how many were delivered to a server that, by the oracle, was not the key's root at that moment.</summary>
    public required long Misdelivered { get; init; }

    /// <summary>
    /// Gets how many packets went to their key's previous root while the true root was joining
    /// (restarted, its news not yet everywhere): a hand-over, counted in <see cref="Delivered"/>
    /// and not in <see cref="Misdelivered"/> (see <see cref="DeliveryOracle"/>).
    /// </summary>
    public long DeliveredDuringJoin { get; init; }

    /// <summary>Gets how many were never delivered: sent less delivered.</summary>
    public required long Dropped { get; init; }

    /// <summary>Gets <see cref="Dropped"/> as a percentage of <see cref="Sent"/>.</summary>
    public required double DroppedPercent { get; init; }

    /// <summary>Gets the wall-clock time of the run, in seconds.</summary>
    public required double WallSeconds { get; init; }

    /// <summary>Gets the peak working set of the process so far, in bytes.</summary>
    public required long PeakWorkingSetBytes { get; init; }
}
