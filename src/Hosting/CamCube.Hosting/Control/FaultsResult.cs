namespace CamCube.Hosting.Control;

/// <summary>The answer to <c>faults [drop=P] [delay-ms=D] [duplicate=P] [reorder=P]</c>: the faults now in force.</summary>
public sealed record FaultsResult : ControlResponse
{
    /// <summary>Gets the probability that a frame is dropped.</summary>
    public double Drop { get; init; }

    /// <summary>Gets the probability that a frame is sent twice.</summary>
    public double Duplicate { get; init; }

    /// <summary>Gets the probability that a frame is held back past later ones.</summary>
    public double Reorder { get; init; }

    /// <summary>Gets the delay added to every frame, in milliseconds.</summary>
    public double DelayMs { get; init; }
}
