using CamCube.Packets;

namespace CamCube.Abstractions.Tests;

public sealed class PacketHeaderFieldTests
{
    [Theory]
    [MemberData(nameof(KeyCoordinateWireTests.WireCases), MemberType = typeof(KeyCoordinateWireTests))]
    public void DestinationIsFourBigEndianFieldsAtItsOffsetAndReadsBackUnchanged(int x, int y, int z, int w)
    {
        var packet = new PacketPool(256).Rent();
        packet.Buffer.AsSpan().Fill(0xEE);
        var destination = new KeyCoordinate(x, y, z, (ushort)w);

        packet.Destination = destination;

        var o = PacketHeader.DestinationOffset;
        byte[] expected = [(byte)(x >> 8), (byte)x, (byte)(y >> 8), (byte)y, (byte)(z >> 8), (byte)z, (byte)(w >> 8), (byte)w];
        Assert.Equal(expected, packet.Buffer[o..(o + 8)]);
        Assert.Equal(0xEE, packet.Buffer[o - 1]);
        Assert.Equal(0xEE, packet.Buffer[o + 8]);
        Assert.Equal(destination, packet.Destination);
        Assert.Equal(new Coordinate(x, y, z), packet.DestinationServer);
    }
}
