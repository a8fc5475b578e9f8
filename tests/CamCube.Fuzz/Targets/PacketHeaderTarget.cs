using CamCube.Packets;
using CamCube.Services.Cache;

namespace CamCube.Fuzz.Targets;

/// <summary>
/// The packet header reader: each record is a whole frame (header of wire format v1 and payload)
/// that the control byte's node receives on the control byte's link; the node validates it
/// (Node.Validate, the <see cref="Packet"/> accessors), hands it to its service and routes it on.
/// </summary>
public sealed class PacketHeaderTarget : IFuzzTarget
{
    /// <inheritdoc/>
    public string Name => "packet";

    /// <inheritdoc/>
    public string Description => "frames, header included, into a node's receive path (PacketHeader, Packet, Node.Validate)";

    /// <inheritdoc/>
    public void Run(byte[] input)
    {
        ArgumentNullException.ThrowIfNull(input);
        var cube = new FrameCube();
        foreach (var (control, body) in InputRecords.Split(input))
        {
            var (server, link) = FrameCube.Address(control);
            cube.Deliver(server, link, body);
        }

        cube.Settle(Name, FrameCube.SettleTime);
    }

    /// <summary>Makes a frame with a v1 header for <paramref name="serviceId"/> and <paramref name="payload"/>.</summary>
    public static byte[] Frame(ushort serviceId, DestinationKind kind, Coordinate source, Coordinate destination, byte[] payload, ushort w = 0)
    {
        ArgumentNullException.ThrowIfNull(payload);
        var packet = new PacketPool(PacketHeader.SizeBytes + payload.Length).Rent();
        packet.WriteHeader(serviceId, kind, 16, source, KeyCoordinate.At(destination, w));
        payload.CopyTo(packet.PayloadArea);
        packet.PayloadLength = payload.Length;
        return packet.Frame.ToArray();
    }

    /// <summary>The seeds: frames for each service and kind, and broken headers.</summary>
    public static IEnumerable<(string Target, string Name, byte[] Bytes)> Seeds()
    {
        // Control byte: node index << 3 | link. (1,1,1) receives from its -x neighbour (0,1,1).
        var centre = new Coordinate(1, 1, 1);
        var centreControl = (byte)(FrameCube.Shape.IndexOf(centre) << 3);
        var from = new Coordinate(0, 1, 1);
        var far = new Coordinate(2, 2, 0);
        yield return ("packet", "to-server-cache", InputRecords.Join(((byte)(centreControl | (byte)LinkDirection.MinusX), Frame(CacheService.ServiceId, DestinationKind.Server, from, far, new byte[60]))));
        yield return ("packet", "to-key", InputRecords.Join(((byte)(centreControl | (byte)LinkDirection.MinusX), Frame(CacheService.ServiceId, DestinationKind.Key, from, far, new byte[60], w: 7))));
        yield return ("packet", "neighbour-frame", InputRecords.Join(((byte)(centreControl | (byte)LinkDirection.MinusX), Frame(0x0001, DestinationKind.Neighbor, from, centre, [0, 0, 0, 1]))));
        yield return ("packet", "unknown-service", InputRecords.Join((centreControl, Frame(0x7777, DestinationKind.Server, from, centre, [1]))));
        yield return ("packet", "ping-like", InputRecords.Join((centreControl, Frame(CamCube.Services.Diagnostics.PingService.ServiceId, DestinationKind.Server, from, far, new byte[16]))));
        var badLength = Frame(CacheService.ServiceId, DestinationKind.Server, from, far, new byte[8]);
        badLength[PacketHeader.PayloadLengthOffset + 1] = 200;
        yield return ("packet", "length-mismatch", InputRecords.Join((centreControl, badLength)));
        yield return ("packet", "short", InputRecords.Join((centreControl, [0, 0x20, 1, 1])));
    }
}
