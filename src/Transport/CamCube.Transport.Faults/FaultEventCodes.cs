namespace CamCube.Transport.Faults;

/// <summary>
/// The event codes <see cref="FaultInjectingTransport"/> posts to its node's loop for its own work.
/// They are negative so that in a trace they never look like the non-negative codes a node's
/// runtime posts, and they keep the values they had when the decorator lived in the simulator, so
/// that the simulator's trace hashes of a run with faults do not change.
/// </summary>
internal static class FaultEventCodes
{
    /// <summary>The decorator has room again on a link; the argument is the link.</summary>
    public const int LinkRoom = -5;

    /// <summary>A link went down (cut, or down below); the argument is the link.</summary>
    public const int LinkDown = -6;

    /// <summary>A link came up (repaired, or up below); the argument is the link.</summary>
    public const int LinkUp = -7;

    /// <summary>Frames whose delay is over are delivered.</summary>
    public const int DeliverDelayed = -8;
}
