using CamCube.Packets;
using CamCube.Services;

namespace CamCube.Runtime.Tests.Shared;

/// <summary>
/// A routed test service for the extended router's API on every transport (linked into their test
/// projects): F sends a packet on to the target in its payload and records where it was asked and
/// for which coordinate; the target's root records the arrival.
/// </summary>
/// <remarks>Payload: stage (0 before F, 1 after), target key coordinate (8 bytes), queue id (1).</remarks>
internal sealed class RoutedProbeService() : RoutedServiceBase(Id, "routed-probe"), IHopInspector, IDropObserver
{
    public const ushort Id = 0x0701;

    /// <summary>Gets where F was asked, and for which current coordinate.</summary>
    public List<(Coordinate At, KeyCoordinate Current)> Evaluations { get; } = [];

    /// <summary>Gets how many packets arrived at their target here.</summary>
    public int Arrivals { get; private set; }

    /// <summary>Gets why each of this service's packets sent from here was dropped, as the drop notices said.</summary>
    public List<DropReason> Drops { get; } = [];

    /// <summary>Gets the router, for the test to call its API directly.</summary>
    public IExtendedRouter PublicRouter => Router;

    /// <summary>On the loop: sends a packet from <paramref name="from"/> on to <paramref name="target"/>, waiting in queue <paramref name="queue"/>.</summary>
    public RouteStatus SendFrom(KeyCoordinate from, KeyCoordinate target, byte queue = 0)
    {
        var packet = Node.CreatePacket();
        var payload = packet.PayloadArea;
        payload[0] = 0;
        target.Write(payload.Slice(1, KeyCoordinate.WireSizeBytes));
        payload[1 + KeyCoordinate.WireSizeBytes] = queue;
        packet.PayloadLength = 2 + KeyCoordinate.WireSizeBytes;
        return Router.Route(packet, from);
    }

    /// <inheritdoc/>
    public override int F(Packet packet, KeyCoordinate current, Span<KeyCoordinate> next)
    {
        Evaluations.Add((Node.Self, current));
        packet.Payload[0] = 1;
        next[0] = KeyCoordinate.Read(packet.Payload.Slice(1, KeyCoordinate.WireSizeBytes));
        return 1;
    }

    /// <inheritdoc/>
    public override int Classify(Packet packet) => packet.Payload[1 + KeyCoordinate.WireSizeBytes];

    /// <inheritdoc/>
    public HopAction OnHop(Packet packet, bool responsible)
    {
        if (responsible && packet.Payload[0] == 1)
        {
            Arrivals++;
            return HopAction.Drop;
        }

        return HopAction.Route;
    }

    /// <inheritdoc/>
    public void OnDropped(in DroppedPacket drop) => Drops.Add(drop.Reason);
}
