using System.Buffers.Binary;
using CamCube.Packets;
using CamCube.Services;

namespace CamCube.Runtime.Tests;

/// <summary>
/// A test service on the extended routing service. Payload: [0] next chain index, [1] chain length,
/// [2..3] packet id, [4..11] the previous hop (x, y, z, arrival link; 0xFFFF if none), then the
/// chain of key coordinates (x, y, z, w; 2 bytes each). F returns the next chain entry; at the end
/// of the chain the packet is consumed. Every hop checks the packet did not leave on the link it
/// arrived on at the previous hop.
/// </summary>
internal sealed class ChainService(ushort id = 0x0500, RoutingQueueOptions? queue = null, List<(Coordinate At, KeyCoordinate Current, int PacketId)>? timeline = null)
    : RoutedServiceBase(id, "chain", queue), IHopInspector
{
    public const int ChainOffset = 12;

    /// <summary>Gets every evaluation of F, in order; shared by the whole cube when a timeline is given.</summary>
    public List<(Coordinate At, KeyCoordinate Current, int PacketId)> Evaluations { get; } = timeline ?? [];

    public List<(Coordinate At, int PacketId)> Arrivals { get; } = [];

    public List<string> BackToSenderViolations { get; } = [];

    public Func<Packet, int>? ClassifyHook { get; set; }

    public Func<Packet, KeyCoordinate, int>? FOverride { get; set; }

    public IExtendedRouter PublicRouter => Router;

    public RouteStatus Send(int packetId, params KeyCoordinate[] chain)
    {
        var packet = Node.CreatePacket();
        var area = packet.PayloadArea;
        area[0] = 0;
        area[1] = (byte)chain.Length;
        BinaryPrimitives.WriteUInt16BigEndian(area[2..], (ushort)packetId);
        BinaryPrimitives.WriteUInt16BigEndian(area[4..], ushort.MaxValue);
        for (var i = 0; i < chain.Length; i++)
        {
            chain[i].Write(area[(ChainOffset + (KeyCoordinate.WireSizeBytes * i))..]);
        }

        packet.PayloadLength = ChainOffset + (8 * chain.Length);
        return Router.Route(packet);
    }

    public override int F(Packet packet, KeyCoordinate current, Span<KeyCoordinate> next)
    {
        var payload = packet.Payload;
        Evaluations.Add((Node.Self, current, BinaryPrimitives.ReadUInt16BigEndian(payload[2..])));
        if (FOverride is not null)
        {
            next[0] = KeyCoordinate.At(Node.Self, 0);
            return FOverride(packet, current);
        }

        var index = payload[0];
        if (index >= payload[1])
        {
            return 0;
        }

        next[0] = KeyCoordinate.Read(payload[(ChainOffset + (KeyCoordinate.WireSizeBytes * index))..]);
        payload[0]++;
        return 1;
    }

    public override int Classify(Packet packet) => ClassifyHook?.Invoke(packet) ?? 0;

    public HopAction OnHop(Packet packet, bool responsible)
    {
        var payload = packet.Payload;
        CheckNotBackToSender(packet);
        var id = BinaryPrimitives.ReadUInt16BigEndian(payload[2..]);
        if (responsible && payload[0] >= payload[1] && FOverride is null)
        {
            Arrivals.Add((Node.Self, id));
            Node.Drop(packet, DropReason.DroppedByService);
            return HopAction.Consumed;
        }

        // Remember where the packet is and the link it came in on, for the next hop's check.
        BinaryPrimitives.WriteUInt16BigEndian(payload[4..], (ushort)Node.Self.X);
        BinaryPrimitives.WriteUInt16BigEndian(payload[6..], (ushort)Node.Self.Y);
        BinaryPrimitives.WriteUInt16BigEndian(payload[8..], (ushort)Node.Self.Z);
        BinaryPrimitives.WriteUInt16BigEndian(payload[10..], (ushort)(packet.ArrivalLink is { } l ? (int)l : 0xFFFF));
        return HopAction.Route;
    }

    private void CheckNotBackToSender(Packet packet)
    {
        var payload = packet.Payload;
        var previousArrival = BinaryPrimitives.ReadUInt16BigEndian(payload[10..]);
        if (BinaryPrimitives.ReadUInt16BigEndian(payload[4..]) == ushort.MaxValue || previousArrival == 0xFFFF || packet.ArrivalLink is null)
        {
            return;
        }

        // The previous server sent on the link whose far end is the link this packet arrived on here.
        var previous = new Coordinate(BinaryPrimitives.ReadUInt16BigEndian(payload[4..]), BinaryPrimitives.ReadUInt16BigEndian(payload[6..]), BinaryPrimitives.ReadUInt16BigEndian(payload[8..]));
        var sentOn = Node.Shape.PeerLink(packet.ArrivalLink.Value);
        if ((int)sentOn == previousArrival)
        {
            BackToSenderViolations.Add($"{previous} sent back on {sentOn.ToShortName()}, the link it arrived on");
        }
    }
}
