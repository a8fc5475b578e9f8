namespace CamCube.Transport.Simulation;

/// <summary>
/// The event codes the simulator uses for its own work items. They are negative so that in the
/// trace they never look like the non-negative codes a node's runtime posts.
/// </summary>
internal static class SimulationEventCodes
{
    /// <summary>A <see cref="TimeProvider"/> timer fires; the argument is the timer's id.</summary>
    public const int Timer = -1;

    /// <summary>An action scheduled with <see cref="SimulationEngine.At"/> runs; the argument is its id.</summary>
    public const int Action = -2;

    /// <summary>A frame reaches the far end of a link; the argument is the receiving link endpoint.</summary>
    public const int Arrival = -4;

    /// <summary>A link endpoint has room; the argument is the endpoint.</summary>
    public const int LinkRoom = -5;

    /// <summary>A link endpoint went down; the argument is the endpoint.</summary>
    public const int LinkDown = -6;

    /// <summary>A link endpoint came up; the argument is the endpoint.</summary>
    public const int LinkUp = -7;

    /// <summary>A link endpoint's head frame has left and its node asked for room; the argument is the endpoint.</summary>
    public const int RoomDue = -9;

    /// <summary>An event cancelled while pending (a frame's arrival after its queue was flushed): skipped, neither counted nor traced.</summary>
    public const int Cancelled = -10;
}
