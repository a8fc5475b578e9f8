namespace CamCube.Transport.Simulation;

/// <summary>
/// The state of one end of a simulated link: its transmit queue (a ring in the network's shared
/// frame array), whether it is up, and its counters. Kept in one flat array per network.
/// </summary>
internal struct LinkEndpoint
{
    /// <summary>The slot of the head frame in this endpoint's ring.</summary>
    public int QueueHead;

    /// <summary>How many frames are queued, the one being serialized included.</summary>
    public int QueueCount;

    /// <summary>The engine sequence of the pending transmit-done event, 0 when the link is idle.</summary>
    public long TransmitSequence;

    /// <summary>The virtual time this endpoint last went down; frames sent before it are lost.</summary>
    public long LastDownNanoseconds;

    /// <summary>Whether the cable is cut.</summary>
    public bool Cut;

    /// <summary>Whether the server at the far end failed and the failure was signalled here.</summary>
    public bool PeerDown;

    /// <summary>Frames that finished serializing on this endpoint.</summary>
    public long FramesTransmitted;

    /// <summary>Bytes of those frames, overhead excluded.</summary>
    public long BytesTransmitted;

    /// <summary>Frames that arrived at this endpoint and were handed to the node.</summary>
    public long FramesDelivered;

    /// <summary>Gets whether the link is up as this end sees it.</summary>
    public readonly bool IsUp => !Cut && !PeerDown;
}
