namespace CamCube.Hosting.Control;

/// <summary>The bounds of a node's control commands.</summary>
public static class ControlCommandLimits
{
    /// <summary>The longest delay the <c>faults</c> command adds to a frame, in milliseconds.</summary>
    public const double FaultDelayMillisecondsMax = 60_000;

    /// <summary>The most pings in one series on the node's loop; a longer <c>ping</c> runs several, one after another.</summary>
    public const int PingsPerSeriesMax = 64;
}
