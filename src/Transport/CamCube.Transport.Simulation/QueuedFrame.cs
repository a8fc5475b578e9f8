namespace CamCube.Transport.Simulation;

/// <summary>
/// A frame in a simulated link's transmit queue: when it leaves, how long it is, and the engine
/// slot of its arrival (to cancel it if the queue is flushed). The frame itself travels in its
/// arrival event. Kept in one flat array per network, so a send or a departure touches one entry.
/// </summary>
internal struct QueuedFrame
{
    /// <summary>The virtual time the frame's last bit leaves.</summary>
    public long DepartureNanoseconds;

    /// <summary>The frame's length in bytes, overhead excluded.</summary>
    public int Length;

    /// <summary>The engine slot of the frame's arrival event.</summary>
    public int ArrivalSlot;
}
