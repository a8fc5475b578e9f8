using System.Buffers.Binary;

namespace CamCube.Transport.Udp.Tests;

public sealed class UdpLinkTransportExchangeTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(20);

    [Fact]
    public void FramesArriveOnTheLinkTheyCameInOnWhenEveryNodeOfA3x3x3CubeSendsOnEveryLink()
    {
        var shape = new TorusShape(3, 3, 3);
        using var cube = TestCube.Start(shape);

        foreach (var node in cube.Nodes)
        {
            for (var d = 0; d < LinkDirections.Count; d++)
            {
                Assert.Equal(1, node.SendBurst((LinkDirection)d, [Tag(node.Self, (LinkDirection)d)]));
            }
        }

        foreach (var node in cube.Nodes)
        {
            Assert.True(node.Sink.WaitFor(s => s.FrameCount == 6, s_timeout), $"{node.Self} received {node.Sink.FrameCount} of 6 frames.");
            foreach (var frame in node.Sink.Frames)
            {
                var (source, sourceLink) = Untag(frame.Bytes);
                Assert.Equal(source, shape.Neighbor(node.Self, frame.Link));
                Assert.Equal(sourceLink.Opposite(), frame.Link);
            }

            Assert.Equal(6, node.Sink.Frames.Select(f => f.Link).Distinct().Count());
        }

        Assert.All(cube.Nodes, n => Assert.Equal(0, n.Transport.DroppedUnknownSender + n.Transport.DroppedBadTag + n.Transport.DroppedReplay + n.Transport.DroppedMalformed));
    }

    [Fact]
    public void FramesArriveOnThePlusLinkBothWaysWhenAnAxisHasSizeTwo()
    {
        var shape = new TorusShape(2, 2, 1);
        using var cube = TestCube.Start(shape);

        foreach (var node in cube.Nodes)
        {
            Assert.False(LoopAction.Run(node.Loop, () => node.Transport.HasRoom(LinkDirection.MinusX)));
            Assert.Equal(1, node.SendBurst(LinkDirection.PlusX, [Tag(node.Self, LinkDirection.PlusX)]));
            Assert.Equal(1, node.SendBurst(LinkDirection.PlusY, [Tag(node.Self, LinkDirection.PlusY)]));
        }

        foreach (var node in cube.Nodes)
        {
            Assert.True(node.Sink.WaitFor(s => s.FrameCount == 2, s_timeout));
            foreach (var frame in node.Sink.Frames)
            {
                var (source, sourceLink) = Untag(frame.Bytes);
                Assert.Equal(source, shape.Neighbor(node.Self, frame.Link));
                Assert.Equal(sourceLink, frame.Link);
            }
        }
    }

    [Fact]
    public void SmallFramesShareOneDatagramWhenSentInOneBurst()
    {
        using var cube = TestCube.Start(new TorusShape(2, 1, 1));
        var a = cube[new Coordinate(0, 0, 0)];
        var b = cube[new Coordinate(1, 0, 0)];
        var frames = Enumerable.Range(0, 50).Select(i => Enumerable.Repeat((byte)i, 100).ToArray()).ToArray();

        Assert.Equal(50, a.SendBurst(LinkDirection.PlusX, frames));

        Assert.True(b.Sink.WaitFor(s => s.FrameCount == 50, s_timeout));
        Assert.Equal(frames, b.Sink.Frames.Select(f => f.Bytes));
        var sent = a.SentCounters(LinkDirection.PlusX);
        Assert.Equal(50, sent.FramesSent);
        Assert.Equal(5_000, sent.FrameBytesSent);
        Assert.Equal(1, sent.DatagramsSent);
        var received = b.Transport.GetCounters(LinkDirection.PlusX);
        Assert.Equal(50, received.FramesReceived);
        Assert.Equal(1, received.DatagramsReceived);
    }

    [Fact]
    public void ABurstLargerThanABatchIsSplitIntoFullDatagrams()
    {
        using var cube = TestCube.Start(new TorusShape(2, 1, 1));
        var a = cube[new Coordinate(0, 0, 0)];
        var b = cube[new Coordinate(1, 0, 0)];

        // 1,000-byte frames take 1,002 bytes of body each: 8 fit in a batch of 8,192 bytes.
        var frames = Enumerable.Range(0, 40).Select(i => Enumerable.Repeat((byte)i, 1_000).ToArray()).ToArray();
        Assert.Equal(40, a.SendBurst(LinkDirection.PlusX, frames));

        Assert.True(b.Sink.WaitFor(s => s.FrameCount == 40, s_timeout));
        Assert.Equal(frames, b.Sink.Frames.Select(f => f.Bytes));
        Assert.Equal(5, a.SentCounters(LinkDirection.PlusX).DatagramsSent);
    }

    [Fact]
    public void AFrameLargerThanABatchTravelsAloneAndIntact()
    {
        using var cube = TestCube.Start(new TorusShape(2, 1, 1), addressing => new UdpTransportOptions
        {
            Addressing = addressing,
            ClusterKey = TestCube.Key,
            BatchBytesMax = 512,
        });
        var a = cube[new Coordinate(0, 0, 0)];
        var b = cube[new Coordinate(1, 0, 0)];
        byte[][] frames = [[1], Enumerable.Range(0, 2_048).Select(i => (byte)i).ToArray(), [2]];

        Assert.Equal(3, a.SendBurst(LinkDirection.PlusX, frames));

        Assert.True(b.Sink.WaitFor(s => s.FrameCount == 3, s_timeout));
        Assert.Equal(frames, b.Sink.Frames.Select(f => f.Bytes));
        Assert.Equal(3, a.SentCounters(LinkDirection.PlusX).DatagramsSent);
        Assert.Equal(12 + 8 + 2 + 2_048 + 16, a.Transport.DatagramBytesMax);
    }

    [Fact]
    public void TrySendRefusesWhenTheLinkIsFullAndRoomIsReportedLater()
    {
        using var cube = TestCube.Start(new TorusShape(2, 1, 1), addressing => new UdpTransportOptions
        {
            Addressing = addressing,
            ClusterKey = TestCube.Key,
            FramesInFlightMax = 4,
        });
        var a = cube[new Coordinate(0, 0, 0)];
        var b = cube[new Coordinate(1, 0, 0)];
        Assert.True(a.Sink.WaitFor(s => s.RoomCount(LinkDirection.PlusX) == 1, s_timeout), "Room is reported once at start.");

        var (taken, hasRoomAfter, refusedFrameKept) = LoopAction.Run(a.Loop, () =>
        {
            var count = 0;
            while (a.Transport.HasRoom(LinkDirection.PlusX))
            {
                Assert.True(a.Transport.TrySend(LinkDirection.PlusX, a.Frame([(byte)count])));
                count++;
            }

            var extra = a.Frame([99]);
            var refused = !a.Transport.TrySend(LinkDirection.PlusX, extra);
            extra.Release();
            return (count, a.Transport.HasRoom(LinkDirection.PlusX), refused);
        });

        Assert.Equal(4, taken);
        Assert.False(hasRoomAfter);
        Assert.True(refusedFrameKept);
        Assert.True(a.Sink.WaitFor(s => s.RoomCount(LinkDirection.PlusX) == 2, s_timeout), "Room is reported again once the socket has sent.");
        Assert.True(LoopAction.Run(a.Loop, () => a.Transport.HasRoom(LinkDirection.PlusX)));
        Assert.True(b.Sink.WaitFor(s => s.FrameCount == 4, s_timeout));
        Assert.Equal([0, 1, 2, 3], b.Sink.Frames.Select(f => (int)f.Bytes[0]));
    }

    private static byte[] Tag(Coordinate source, LinkDirection link)
    {
        var bytes = new byte[7];
        BinaryPrimitives.WriteUInt16BigEndian(bytes, (ushort)source.X);
        BinaryPrimitives.WriteUInt16BigEndian(bytes.AsSpan(2), (ushort)source.Y);
        BinaryPrimitives.WriteUInt16BigEndian(bytes.AsSpan(4), (ushort)source.Z);
        bytes[6] = (byte)link;
        return bytes;
    }

    private static (Coordinate Source, LinkDirection Link) Untag(byte[] bytes) => (
        new Coordinate(
            BinaryPrimitives.ReadUInt16BigEndian(bytes),
            BinaryPrimitives.ReadUInt16BigEndian(bytes.AsSpan(2)),
            BinaryPrimitives.ReadUInt16BigEndian(bytes.AsSpan(4))),
        (LinkDirection)bytes[6]);
}
