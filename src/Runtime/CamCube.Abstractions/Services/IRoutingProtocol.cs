using CamCube.Packets;

namespace CamCube.Services;

/// <summary>
/// A service's own routing protocol for the extended routing service (symbiotic-routing 5):
/// <c>F</c> names the next key coordinates a packet goes through, <c>classify</c> picks its queue.
/// </summary>
public interface IRoutingProtocol
{
    /// <summary>
    /// The function F: writes into <paramref name="next"/> the set K of next key coordinates for
    /// <paramref name="packet"/> and returns how many it wrote. <paramref name="current"/> is the key
    /// coordinate F is evaluated for: this server's own without failures, or the coordinate this
    /// server stands in for when it owns a failed server's keys. Returning 0, or throwing, drops
    /// the packet (counted as <see cref="DropReason.EmptyTargetSet"/> or <see cref="DropReason.RoutingFunctionFault"/>).
    /// A returned coordinate may be <paramref name="current"/> itself or map to this server: the packet then
    /// arrives here again and F is asked again.
    /// </summary>
    int F(Packet packet, KeyCoordinate current, Span<KeyCoordinate> next);

    /// <summary>
    /// The function classify: the id of the queue <paramref name="packet"/> waits in (0 is the default queue).
    /// Asked only once the service has added a queue of its own: with the default queue alone there is nothing to choose.
    /// </summary>
    int Classify(Packet packet);
}
