namespace CamCube.Transport.Simulation;

/// <summary>
/// The state of one end of a simulated link: its transmit queue (a ring of departure times in the
/// network's shared arrays), whether it is up, whether its node asked for room, and its counters.
/// Kept in one flat array per network; the fields are ordered so that an endpoint takes 64 bytes.
/// </summary>
internal struct LinkEndpoint
{
    /// <summary>The slot of the head frame in this endpoint's ring.</summary>
    public int QueueHead;

    /// <summary>How many frames are queued, the one being serialized included (frames whose departure has come are taken out lazily).</summary>
    public int QueueCount;

    /// <summary>The engine slot of the pending room event, valid while <see cref="RoomEventPending"/>.</summary>
    public int RoomSlot;

    /// <summary>The bytes of the queued frames (overhead excluded), counted as transmitted when they leave.</summary>
    public int QueuedBytes;

    /// <summary>Whether a room event is scheduled for this endpoint's head frame's departure.</summary>
    public bool RoomEventPending;

    /// <summary>Whether the node wants to hear of room when a frame leaves: always, unless its node enabled room on request.</summary>
    public bool RoomRequested;

    /// <summary>Whether the node enabled room on request (<see cref="ILinkRoomRequests"/>).</summary>
    public bool RoomOnRequest;

    /// <summary>Whether the cable is cut.</summary>
    public bool Cut;

    /// <summary>Whether the server at the far end failed and the failure was signalled here.</summary>
    public bool PeerDown;

    /// <summary>The virtual time this endpoint last went down; frames sent before it are lost.</summary>
    public long LastDownNanoseconds;

    /// <summary>
    /// The departure of the last queued frame, valid while <see cref="QueueCount"/> is positive: once
    /// it has come, every queued frame has left, which a send sees without reading the queue.
    /// </summary>
    public long TailDepartureNanoseconds;

    /// <summary>Frames that finished serializing on this endpoint.</summary>
    public long FramesTransmitted;

    /// <summary>Bytes of those frames, overhead excluded.</summary>
    public long BytesTransmitted;

    /// <summary>Frames that arrived at this endpoint and were handed to the node.</summary>
    public long FramesDelivered;

    /// <summary>Gets whether the link is up as this end sees it.</summary>
    public readonly bool IsUp => !Cut && !PeerDown;
}
