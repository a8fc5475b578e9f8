namespace CamCube.Messaging;

/// <summary>Where a typed message came from and where it was sent, passed to its handler.</summary>
/// <param name="Source">The server that sent the message.</param>
/// <param name="Destination">The key coordinate or server (with w 0) the message was routed to.</param>
/// <param name="HopCount">The hops the message took to arrive here.</param>
public readonly record struct MessageContext(Coordinate Source, KeyCoordinate Destination, int HopCount);
