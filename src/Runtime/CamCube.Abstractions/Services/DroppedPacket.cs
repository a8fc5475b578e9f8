namespace CamCube.Services;

/// <summary>
/// What a drop notice says of a packet the network dropped (<see cref="IDropObserver.OnDropped"/>):
/// why and where, its destination as it was then, and the start of its payload, enough for the
/// service to find the request it belonged to.
/// </summary>
public readonly ref struct DroppedPacket
{
    /// <summary>The most payload bytes a notice carries back: <see cref="PayloadPrefix"/> is at most this long.</summary>
    public const int PayloadPrefixBytesMax = 64;

    /// <summary>Creates the description of a dropped packet.</summary>
    /// <param name="reason">Why it was dropped.</param>
    /// <param name="droppedAt">The server that dropped it.</param>
    /// <param name="destinationKind">What its destination named.</param>
    /// <param name="destination">Its destination when it was dropped (for a routed service, the key coordinate F chose last).</param>
    /// <param name="hopCount">The hops it had taken.</param>
    /// <param name="payloadLength">Its whole payload's length in bytes.</param>
    /// <param name="payloadPrefix">Its payload's first bytes, at most <see cref="PayloadPrefixBytesMax"/>.</param>
    public DroppedPacket(DropReason reason, Coordinate droppedAt, Packets.DestinationKind destinationKind, KeyCoordinate destination, byte hopCount, int payloadLength, ReadOnlySpan<byte> payloadPrefix)
    {
        Reason = reason;
        DroppedAt = droppedAt;
        DestinationKind = destinationKind;
        Destination = destination;
        HopCount = hopCount;
        PayloadLength = payloadLength;
        PayloadPrefix = payloadPrefix;
    }

    /// <summary>Gets why the packet was dropped.</summary>
    public DropReason Reason { get; }

    /// <summary>Gets the server that dropped it (this node for a drop here).</summary>
    public Coordinate DroppedAt { get; }

    /// <summary>Gets what its destination named: a key or a server.</summary>
    public Packets.DestinationKind DestinationKind { get; }

    /// <summary>Gets its destination when it was dropped.</summary>
    public KeyCoordinate Destination { get; }

    /// <summary>Gets how many hops it had taken.</summary>
    public byte HopCount { get; }

    /// <summary>Gets its whole payload's length, in bytes.</summary>
    public int PayloadLength { get; }

    /// <summary>Gets the first bytes of its payload (at most <see cref="PayloadPrefixBytesMax"/>); valid for the upcall only.</summary>
    public ReadOnlySpan<byte> PayloadPrefix { get; }
}
