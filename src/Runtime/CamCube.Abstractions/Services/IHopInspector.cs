using CamCube.Packets;

namespace CamCube.Services;

/// <summary>
/// Implemented by a <see cref="RoutedServiceBase"/> that inspects its packets at every hop (symbiotic-routing 5:
/// a cache hit at a secondary replica, an on-path combine). Saying so with this interface is how the
/// runtime learns it: a routed service that does not implement it has every packet handed to its
/// router at each hop without an upcall.
/// </summary>
public interface IHopInspector
{
    /// <summary>
    /// Inspects a packet of this service at a hop, before the routing service sees it. Runs on the
    /// node's event loop. <paramref name="responsible"/> is true when this server is responsible for
    /// the packet's current destination key coordinate (F will be asked next).
    /// </summary>
    /// <param name="packet">The packet, lent for the call; <see cref="HopAction.Consumed"/> keeps it.</param>
    /// <param name="responsible">Whether this server is the root of the packet's current destination.</param>
    /// <returns>What becomes of the packet: on through the router, kept by the service, or dropped.</returns>
    HopAction OnHop(Packet packet, bool responsible);
}
