using CamCube.Packets;

namespace CamCube.Abstractions.Tests;

/// <summary><see cref="Packet.Share"/>: headers of their own over one payload, counted.</summary>
public sealed class PacketShareTests
{
    private static readonly Coordinate s_source = new(1, 2, 3);

    [Fact]
    public void BufferReturnsToItsPoolOnceAfterTheLastHeaderWhenTheOwnerReleasesFirst()
    {
        var pool = new PacketPool(512);
        var packet = Payload(pool, 100);
        var headers = Enumerable.Range(0, 6).Select(_ => packet.Share()).ToArray();

        packet.Release();
        for (var i = 0; i < 5; i++)
        {
            headers[i].Release();
            Assert.Equal(0, pool.ReturnedCount);
        }

        headers[5].Release();
        Assert.Equal((1L, 1L, 6L, 6L), (pool.RentedCount, pool.ReturnedCount, pool.HeaderPool.RentedCount, pool.HeaderPool.ReturnedCount));
    }

    [Fact]
    public void BufferReturnsToItsPoolOnlyWhenTheOwnerReleasesAfterEveryHeader()
    {
        var pool = new PacketPool(512);
        var packet = Payload(pool, 100);
        foreach (var header in Enumerable.Range(0, 6).Select(_ => packet.Share()).ToArray())
        {
            header.Release();
        }

        Assert.Equal(0, pool.ReturnedCount);
        packet.Release();
        Assert.Equal(1, pool.ReturnedCount);
        Assert.Equal(1, pool.FreeCount);
    }

    [Fact]
    public void CopiedOutFrameHoldsTheHeadersOwnDestinationAndTheSharedPayloadWhenTheHeaderIsRewritten()
    {
        var pool = new PacketPool(512);
        var packet = Payload(pool, 40);
        var header = packet.Share();
        header.StampHeader(0x0700, DestinationKind.Server, 9, s_source, KeyCoordinate.At(new Coordinate(4, 5, 6), 0));
        var wire = new byte[512];

        var length = header.CopyFrameTo(wire);

        Assert.Equal(PacketHeader.SizeBytes + 40, length);
        Assert.True(header.IsSharedHeader);
        Assert.Equal(packet.Payload.ToArray(), wire[PacketHeader.SizeBytes..length]);
        Assert.Equal(new Coordinate(4, 5, 6), header.DestinationServer);
        Assert.Equal(new Coordinate(7, 7, 7), packet.DestinationServer);
        Assert.Equal(header.Buffer[..PacketHeader.SizeBytes], wire[..PacketHeader.SizeBytes]);
    }

    [Fact]
    public void GatherGivesAWholePacketWithTheSameFrameAndReleasesTheHeader()
    {
        var pool = new PacketPool(512);
        var packet = Payload(pool, 64);
        var header = packet.Share();
        var expected = new byte[512];
        var length = header.CopyFrameTo(expected);
        packet.Release();

        var whole = header.Gather(pool);

        Assert.False(whole.IsSharedHeader);
        Assert.Equal(expected[..length], whole.Frame.ToArray());
        Assert.Equal(1, pool.HeaderPool.ReturnedCount);
        Assert.Equal(1, pool.ReturnedCount);
        whole.Release();
        Assert.Equal(2, pool.ReturnedCount);
    }

    [Fact]
    public void PayloadIsReadOnlyWhileSharedAndWritableAgainWhenTheLastHeaderIsGone()
    {
        var pool = new PacketPool(512);
        var packet = Payload(pool, 10);
        var header = packet.Share();

        Assert.Throws<InvalidOperationException>(() => packet.PayloadArea.Length);
        Assert.Throws<InvalidOperationException>(() => packet.PayloadLength = 11);
        Assert.Throws<InvalidOperationException>(() => header.PayloadArea.Length);
        Assert.Throws<InvalidOperationException>(() => header.Frame.Length);
        header.Release();

        packet.PayloadLength = 11;
        Assert.Equal(11, packet.Payload.Length);
    }

    [Fact]
    public void SecondReleaseOfASharedHeaderOrOfItsOwnerThrowsAndLeavesTheCountWhole()
    {
        var pool = new PacketPool(512);
        var packet = Payload(pool, 10);
        var first = packet.Share();
        var second = packet.Share();
        first.Release();
        packet.Release();

        Assert.Throws<InvalidOperationException>(first.Release);
        Assert.Throws<InvalidOperationException>(packet.Release);
        Assert.Throws<InvalidOperationException>(() => packet.Share());
        Assert.Equal(0, pool.ReturnedCount);
        second.Release();
        Assert.Equal(1, pool.ReturnedCount);
    }

    [Fact]
    public void HeaderSharedFromAHeaderCountsOnTheSameBuffer()
    {
        var pool = new PacketPool(512);
        var packet = Payload(pool, 10);
        var header = packet.Share();
        var again = header.Share();
        packet.Release();
        header.Release();

        Assert.Equal(0, pool.ReturnedCount);
        Assert.Equal(packet.Buffer[PacketHeader.SizeBytes..(PacketHeader.SizeBytes + 10)], again.Payload.ToArray());
        again.Release();
        Assert.Equal(1, pool.ReturnedCount);
    }

    private static Packet Payload(PacketPool pool, int length)
    {
        var packet = pool.Rent();
        packet.WriteHeader(0x0700, DestinationKind.Server, 9, s_source, KeyCoordinate.At(new Coordinate(7, 7, 7), 0));
        for (var i = 0; i < length; i++)
        {
            packet.PayloadArea[i] = (byte)(i * 7);
        }

        packet.PayloadLength = length;
        return packet;
    }
}
