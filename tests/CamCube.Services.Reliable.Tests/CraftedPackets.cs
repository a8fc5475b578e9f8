using CamCube.Packets;

namespace CamCube.Services.Reliable.Tests;

/// <summary>Data packets written by hand, as a peer (honest, duplicated by the network, or broken) might send them, handed straight to a receiver's endpoint.</summary>
internal static class CraftedPackets
{
    /// <summary>Hands <paramref name="to"/>'s endpoint a data packet of flow <paramref name="flowId"/> from <paramref name="from"/>; returns whether the endpoint kept it.</summary>
    public static bool DeliverData(
        ReliableCube cube,
        Coordinate from,
        Coordinate to,
        ulong flowId,
        uint sequence,
        uint firstUnacked,
        int messageLength,
        int fragmentOffset,
        ReadOnlySpan<byte> fragment,
        KeyCoordinate? key = null)
    {
        var packet = cube.Cube.Pool.Rent();
        packet.WriteHeader(ReliableCube.ServiceId, DestinationKind.Server, 16, from, KeyCoordinate.At(to, 0));
        var payload = packet.PayloadArea;
        var endpoint = cube.EndpointOf(to);
        ReliableWire.WritePrefix(payload, endpoint.Options.PacketTag, ReliablePacketKind.Data, key is null ? (byte)0 : ReliableWire.KeyFlowFlag, flowId, sequence);
        ReliableWire.UInt32(payload, ReliableWire.FirstUnackedOffset, firstUnacked);
        ReliableWire.UInt32(payload, ReliableWire.MessageLengthOffset, (uint)messageLength);
        ReliableWire.UInt32(payload, ReliableWire.FragmentOffsetOffset, (uint)fragmentOffset);
        (key ?? default).Write(payload[ReliableWire.KeyOffset..]);
        fragment.CopyTo(payload[ReliableWire.DataHeaderBytes..]);
        packet.PayloadLength = ReliableWire.DataHeaderBytes + fragment.Length;
        var kept = endpoint.OnDeliver(packet);
        if (!kept)
        {
            packet.Release();
        }

        return kept;
    }

    /// <summary>Hands <paramref name="to"/>'s endpoint a first copy of a one-packet request <paramref name="exchangeId"/> from <paramref name="from"/>, of a requester that knows no life of it.</summary>
    public static void DeliverRequest(ReliableCube cube, Coordinate from, Coordinate to, ulong exchangeId, KeyCoordinate? key, ReadOnlySpan<byte> body)
    {
        var packet = cube.Cube.Pool.Rent();
        packet.WriteHeader(ReliableCube.ServiceId, DestinationKind.Server, 16, from, KeyCoordinate.At(to, 0));
        var payload = packet.PayloadArea;
        var endpoint = cube.EndpointOf(to);
        var flags = (byte)(ReliableWire.AgeFlag | (key is null ? 0 : ReliableWire.KeyFlowFlag));
        ReliableWire.WritePrefix(payload, endpoint.Options.PacketTag, ReliablePacketKind.Request, flags, exchangeId, 0);
        payload[ReliableWire.CopyOffset] = 1;
        ReliableWire.UInt64(payload, ReliableWire.OldestOpenOffset, exchangeId);
        (key ?? default).Write(payload[ReliableWire.RequestKeyOffset..]);
        body.CopyTo(payload[ReliableWire.RequestHeaderBytes..]);
        packet.PayloadLength = ReliableWire.RequestHeaderBytes + body.Length;
        if (!endpoint.OnDeliver(packet))
        {
            packet.Release();
        }
    }

    /// <summary>Hands <paramref name="to"/>'s endpoint a reply from <paramref name="from"/> to exchange <paramref name="exchangeId"/>, naming the responder's life <paramref name="life"/>.</summary>
    public static void DeliverReply(ReliableCube cube, Coordinate from, Coordinate to, ulong exchangeId, uint life, ReadOnlySpan<byte> body)
    {
        var packet = cube.Cube.Pool.Rent();
        packet.WriteHeader(ReliableCube.ServiceId, DestinationKind.Server, 16, from, KeyCoordinate.At(to, 0));
        var payload = packet.PayloadArea;
        var endpoint = cube.EndpointOf(to);
        ReliableWire.WritePrefix(payload, endpoint.Options.PacketTag, ReliablePacketKind.Reply, 0, exchangeId, life);
        payload[ReliableWire.CopyOffset] = 1;
        body.CopyTo(payload[ReliableWire.ReplyHeaderBytes..]);
        packet.PayloadLength = ReliableWire.ReplyHeaderBytes + body.Length;
        if (!endpoint.OnDeliver(packet))
        {
            packet.Release();
        }
    }
}
