using CamCube.Packets;
using CamCube.Testing;

namespace CamCube.Transport.Udp.Tests;

/// <summary>
/// The UDP fuzz target's generated seeds (tests/CamCube.Fuzz/corpus/udp): valid datagrams from both
/// neighbours of (0,0,0) in a 3x1x1 cube, a credit datagram, a replay, forgeries and truncations, made
/// with the transport's own header writer. They live here, beside the transport's internals, so the
/// fuzz driver needs no access to them. Each input is a series of records: a control byte (bit 0 seal
/// the record, bit 1 from (2,0,0), bit 2 from a stranger), a 2-byte big-endian length and the body
/// (<see cref="KeptFuzzSeeds.Join"/>).
/// </summary>
internal static class UdpFuzzSeeds
{
    private const byte Sealed = 1;
    private const byte FromMinusX = 2;
    private const byte FromStranger = 4;

    /// <summary>The seeds by file name.</summary>
    public static IEnumerable<(string Name, byte[] Bytes)> All()
    {
        var frame = Frame(new Coordinate(1, 0, 0), new Coordinate(0, 0, 0), [1, 2, 3, 4]);
        var frames = HostileNeighbour.FramesPart(frame, frame);
        var valid = Header(UdpDatagram.KindFrames, LinkDirection.MinusX, 1_000, credit: 0, frames);
        yield return ("frames-sealed", KeptFuzzSeeds.Join((Sealed, valid)));
        yield return ("frames-from-minus-x", KeptFuzzSeeds.Join((Sealed | FromMinusX, Header(UdpDatagram.KindFrames, LinkDirection.PlusX, 5, credit: 3, frames))));
        yield return ("credit-only", KeptFuzzSeeds.Join((Sealed, Header(UdpDatagram.KindCredit, LinkDirection.MinusX, 7, credit: 1_000, []))));
        yield return ("replayed", KeptFuzzSeeds.Join((Sealed, valid), (Sealed, valid)));
        yield return ("bad-tag", KeptFuzzSeeds.Join((0, [.. valid, .. new byte[UdpDatagram.TagSizeBytes]])));
        yield return ("stranger", KeptFuzzSeeds.Join((Sealed | FromStranger, valid)));
        yield return ("truncated-frame", KeptFuzzSeeds.Join((Sealed, Header(UdpDatagram.KindFrames, LinkDirection.MinusX, 9, credit: 0, [0, 40, 1, 2]))));
        yield return ("empty", KeptFuzzSeeds.Join((0, [])));
    }

    /// <summary>A datagram's header and plaintext credit, then <paramref name="frames"/>, ready to seal.</summary>
    private static byte[] Header(byte kind, LinkDirection senderLink, ulong counter, ulong credit, byte[] frames)
    {
        var datagram = new byte[UdpDatagram.FramesOffset + frames.Length];
        UdpDatagram.WriteHeader(datagram, senderLink, counter, kind);
        UdpDatagram.WriteCredit(datagram, credit);
        frames.CopyTo(datagram, UdpDatagram.FramesOffset);
        return datagram;
    }

    /// <summary>A frame of service 0x0010 from <paramref name="source"/> to server <paramref name="destination"/>.</summary>
    private static byte[] Frame(Coordinate source, Coordinate destination, byte[] payload)
    {
        var packet = new PacketPool(PacketHeader.SizeBytes + payload.Length).Rent();
        packet.WriteHeader(0x0010, DestinationKind.Server, 16, source, KeyCoordinate.At(destination, 0));
        payload.CopyTo(packet.PayloadArea);
        packet.PayloadLength = payload.Length;
        return packet.Frame.ToArray();
    }
}
