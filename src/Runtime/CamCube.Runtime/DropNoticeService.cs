using System.Buffers.Binary;
using CamCube.Packets;
using CamCube.Services;

namespace CamCube.Runtime;

/// <summary>
/// Drop notices (service id 0xFF03): where a routed packet of a service that implements
/// <see cref="IDropObserver"/> dies (unreachable, hop limit, queue time limit, no route), a notice
/// goes back to its source by server routing, carrying the reason and the start of the packet, and
/// the source's node hands it to the sending service. A notice is built while the dropped packet is
/// still held and sent from a later turn of the loop, so no drop sends in the middle of a poll.
/// </summary>
/// <remarks>
/// Payload (wire format v1): reason (1 byte), the dropped packet's service id (2), destination kind
/// (1), destination (8), hop count (1), payload length (2), and its first payload bytes (at most
/// <see cref="DroppedPacket.PayloadPrefixBytesMax"/>).
/// </remarks>
internal sealed class DropNoticeService(Node node) : IControlService
{
    /// <summary>The bytes of a notice's payload before the dropped packet's payload prefix.</summary>
    public const int FixedBytes = 15;

    public ushort ServiceId => ServiceIds.DropNotice;

    public string Name => "drop-notice";

    /// <summary>Gets whether a drop for <paramref name="reason"/> is told to the source.</summary>
    public static bool IsNoticed(DropReason reason) =>
        reason is DropReason.Unreachable or DropReason.HopLimitExceeded or DropReason.Expired or DropReason.NoRoute;

    /// <summary>Writes a notice of <paramref name="dropped"/> (which the caller still holds) and posts it to the loop, which sends it to the packet's source.</summary>
    public void Notify(Packet dropped, DropReason reason)
    {
        var notice = node.Pool.Rent();
        var prefix = Math.Min(Math.Min(dropped.PayloadLength, DroppedPacket.PayloadPrefixBytesMax), notice.PayloadCapacity - FixedBytes);
        if (prefix < 0)
        {
            notice.Release();
            return;
        }

        notice.WriteHeader(ServiceIds.DropNotice, DestinationKind.Server, node.HopLimit, node.Self, KeyCoordinate.At(dropped.Source, 0));
        var p = notice.PayloadArea;
        p[0] = (byte)reason;
        BinaryPrimitives.WriteUInt16BigEndian(p[1..], dropped.ServiceId);
        p[3] = (byte)dropped.DestinationKind;
        dropped.Destination.Write(p.Slice(4, KeyCoordinate.WireSizeBytes));
        p[12] = dropped.HopCount;
        BinaryPrimitives.WriteUInt16BigEndian(p[13..], (ushort)dropped.PayloadLength);
        dropped.Payload[..prefix].CopyTo(p[FixedBytes..]);
        notice.PayloadLength = FixedBytes + prefix;
        node.Post(Node.WorkCode.SendDropNotice, 0, notice);
    }

    /// <summary>Reads a notice's description of the dropped packet; false if the notice is malformed.</summary>
    public static bool TryRead(Packet notice, out ushort serviceId, out DroppedPacket drop)
    {
        var p = notice.Payload;
        if (p.Length < FixedBytes || p.Length > FixedBytes + DroppedPacket.PayloadPrefixBytesMax || !IsNoticed((DropReason)p[0]) || p[3] > (byte)DestinationKind.Key)
        {
            serviceId = 0;
            drop = default;
            return false;
        }

        serviceId = BinaryPrimitives.ReadUInt16BigEndian(p[1..]);
        drop = new DroppedPacket((DropReason)p[0], notice.Source, (DestinationKind)p[3], KeyCoordinate.Read(p.Slice(4, KeyCoordinate.WireSizeBytes)), p[12], BinaryPrimitives.ReadUInt16BigEndian(p[13..]), p[FixedBytes..]);
        return true;
    }

    public bool HasPending(int d) => false;

    public void OnRegistered(INodeContext context)
    {
    }

    public void OnDeregistered()
    {
    }

    public bool OnDeliver(Packet packet)
    {
        node.DeliverDropNotice(packet);
        return false;
    }

    public ForwardDecision OnForward(Packet packet) => ForwardDecision.Forward;

    public bool OnNeighborFrame(Packet packet, LinkDirection link) => false;

    public Packet? Poll(LinkDirection link) => null;

    public void OnLinkChanged(LinkDirection link, bool up)
    {
    }

    public void OnServerReachabilityChanged(Coordinate server, bool reachable)
    {
    }
}
