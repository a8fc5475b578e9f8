using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;

namespace CamCube.Transport.Udp.Tests;

/// <summary>
/// Segmentation offload over real sockets on loopback: a burst of datagrams to one neighbour
/// leaves in one system call and arrives as the same separate datagrams; a refused segmented send
/// falls back to one datagram per call and loses nothing.
/// </summary>
public sealed class UdpLinkTransportSegmentationTests
{
    // One 2,048-byte frame (the test pool's largest) fills a batch: a datagram of 12 + 8 + 2 + 2,048 + 16 bytes.
    private const int FrameBytes = 2_048;
    private const int DatagramBytes = 2_086;
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(20);
    private static readonly Coordinate s_a = new(0, 0, 0);
    private static readonly Coordinate s_b = new(1, 0, 0);

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void ABurstArrivesIntactAndInOrderInOneSegmentedSendWhenOnAndOneSendPerDatagramWhenOff(bool segmentation)
    {
        using var cube = StartPair(segmentation);
        var a = cube[s_a];
        var b = cube[s_b];
        var frames = Frames(20, FrameBytes);

        Assert.Equal(segmentation, a.Transport.UsesSegmentationOffload);
        Assert.Equal(20, a.SendBurst(LinkDirection.PlusX, frames));

        Assert.True(b.Sink.WaitFor(s => s.FrameCount == 20, s_timeout), $"received {b.Sink.FrameCount} of 20 frames");
        Assert.Equal(frames, b.Sink.Frames.Select(f => f.Bytes));
        Assert.Equal(20, a.SentCounters(LinkDirection.PlusX).DatagramsSent);
        Assert.Equal(segmentation ? 1 : 0, SegmentedSends(a));
        Assert.Equal(segmentation ? 20 : 0, a.Transport.SegmentedDatagrams);
        Assert.Equal(20, b.Transport.GetCounters(LinkDirection.PlusX).DatagramsReceived);
        AssertNothingDropped(b);
    }

    [Fact]
    public void AShorterLastDatagramLeavesInTheSameSend()
    {
        using var cube = StartPair(segmentation: true);
        var a = cube[s_a];
        var b = cube[s_b];
        var frames = Frames(5, FrameBytes).Append(Enumerable.Repeat((byte)0xEE, 100).ToArray()).ToArray();

        Assert.Equal(6, a.SendBurst(LinkDirection.PlusX, frames));

        Assert.True(b.Sink.WaitFor(s => s.FrameCount == 6, s_timeout), $"received {b.Sink.FrameCount} of 6 frames");
        Assert.Equal(frames, b.Sink.Frames.Select(f => f.Bytes));
        Assert.Equal(1, SegmentedSends(a));
        Assert.Equal(6, a.Transport.SegmentedDatagrams);
        AssertNothingDropped(b);
    }

    [Fact]
    public void TheKernelDeliversEachDatagramOfASegmentedSendSeparately()
    {
        // Only node (0,0,0) runs; a plain socket listens where (1,0,0) would.
        using var cube = TestCube.Start(new TorusShape(2, 1, 1), Options(segmentation: true), include: c => c == s_a);
        using var listener = new Socket(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, cube.BasePort + 1));
        listener.ReceiveTimeout = (int)s_timeout.TotalMilliseconds;
        var a = cube[s_a];

        Assert.Equal(10, a.SendBurst(LinkDirection.PlusX, Frames(10, FrameBytes)));

        var buffer = new byte[65_536];
        ulong? previous = null;
        for (var i = 0; i < 10; i++)
        {
            var length = listener.Receive(buffer);
            Assert.Equal(DatagramBytes, length);
            Assert.Equal(UdpDatagram.Magic, buffer[UdpDatagram.MagicOffset]);
            Assert.Equal(UdpDatagram.KindFrames, buffer[UdpDatagram.KindOffset]);
            var counter = BinaryPrimitives.ReadUInt64BigEndian(buffer.AsSpan(UdpDatagram.CounterOffset));
            Assert.True(previous is null || counter == previous + 1, $"counter {counter} after {previous}");
            previous = counter;
        }

        Assert.Equal(1, SegmentedSends(a));
    }

    [Fact]
    public void ARefusedSegmentedSendFallsBackToOneDatagramPerSendAndLosesNothing()
    {
        using var cube = StartPair(segmentation: true);
        var a = cube[s_a];
        var b = cube[s_b];

        // SO_NO_CHECK (no UDP checksum) makes Linux refuse every segmented send with EINVAL,
        // while single datagrams still go: the refusal a route with a small MTU gives.
        LoopAction.Run(a.Loop, () => a.Transport.BoundSocket!.SetRawSocketOption(1, 11, BitConverter.GetBytes(1)));
        var first = Frames(20, FrameBytes);
        var second = Frames(5, FrameBytes, seed: 100);

        Assert.Equal(20, a.SendBurst(LinkDirection.PlusX, first));
        Assert.True(b.Sink.WaitFor(s => s.FrameCount == 20, s_timeout), $"received {b.Sink.FrameCount} of 20 frames");
        Assert.Equal(5, a.SendBurst(LinkDirection.PlusX, second));
        Assert.True(b.Sink.WaitFor(s => s.FrameCount == 25, s_timeout), $"received {b.Sink.FrameCount} of 25 frames");

        Assert.Equal(first.Concat(second), b.Sink.Frames.Select(f => f.Bytes));
        Assert.False(a.Transport.UsesSegmentationOffload);
        Assert.Equal(0, SegmentedSends(a));
        var sent = a.SentCounters(LinkDirection.PlusX);
        Assert.Equal(25, sent.DatagramsSent);
        Assert.Equal(0, sent.SendErrors);
        AssertNothingDropped(b);
    }

    [Fact]
    public void ALargerSingleDatagramAfterASegmentedSendIsNotCut()
    {
        using var cube = StartPair(segmentation: true);
        var a = cube[s_a];
        var b = cube[s_b];

        // Two 1,000-byte frames fill a batch of 2,050 bytes: a burst of four makes two datagrams
        // of 2,040 bytes, sent segmented; the socket keeps that segment size.
        var small = Frames(4, 1_000);
        Assert.Equal(4, a.SendBurst(LinkDirection.PlusX, small));
        Assert.True(b.Sink.WaitFor(s => s.FrameCount == 4, s_timeout), $"received {b.Sink.FrameCount} of 4 frames");
        Assert.Equal(1, SegmentedSends(a));

        // A 2,086-byte datagram alone: were the segment size still set, the kernel would cut it in two.
        var large = Frames(1, FrameBytes, seed: 7);
        Assert.Equal(1, a.SendBurst(LinkDirection.PlusX, large));

        Assert.True(b.Sink.WaitFor(s => s.FrameCount == 5, s_timeout), $"received {b.Sink.FrameCount} of 5 frames");
        Assert.Equal(large[0], b.Sink.Frames[4].Bytes);
        AssertNothingDropped(b);
    }

    /// <summary>Reads the count on the loop: a send is counted just after the socket took it, so the peer may hold its frames before another thread sees the count.</summary>
    private static long SegmentedSends(TestNode node) => LoopAction.Run(node.Loop, () => node.Transport.SegmentedSends);

    private static TestCube StartPair(bool segmentation) => TestCube.Start(new TorusShape(2, 1, 1), Options(segmentation));

    private static Func<UdpPeerAddressing, UdpTransportOptions> Options(bool segmentation) => addressing => new UdpTransportOptions
    {
        Addressing = addressing,
        ClusterKey = TestCube.Key,
        BatchBytesMax = UdpDatagram.LengthPrefixBytes + FrameBytes,
        SegmentationOffload = segmentation,
    };

    private static byte[][] Frames(int count, int bytes, int seed = 0) =>
        Enumerable.Range(seed, count).Select(i => Enumerable.Range(0, bytes).Select(j => (byte)(i + j)).ToArray()).ToArray();

    private static void AssertNothingDropped(TestNode node) =>
        Assert.Equal(0, node.Transport.DroppedUnknownSender + node.Transport.DroppedBadTag + node.Transport.DroppedReplay + node.Transport.DroppedMalformed);
}
