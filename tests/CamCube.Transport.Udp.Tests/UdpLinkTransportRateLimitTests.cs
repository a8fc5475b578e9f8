using System.Buffers.Binary;
using CamCube.Packets;
using CamCube.Runtime.Loops;

namespace CamCube.Transport.Udp.Tests;

/// <summary>
/// A link's rate limit, with the sender's loop on a manual clock: how many datagrams leave at once,
/// which wait, and when each leaves. (The throughput it gives in real time is the benchmarks' to measure.)
/// </summary>
public sealed class UdpLinkTransportRateLimitTests : IDisposable
{
    // 5,000-byte frames travel one per datagram (two do not fit in a batch of 8,192 bytes).
    private const int FrameBytes = 5_000;
    private const int DatagramBytes = UdpDatagram.OverheadBytes + UdpDatagram.LengthPrefixBytes + FrameBytes;

    // The rate buys one datagram's bytes in 1/128 s, a time exact in binary: 78,125 ticks.
    private const long RateBitsPerSecond = DatagramBytes * 8L * 128;
    private static readonly TimeSpan s_perDatagram = TimeSpan.FromTicks(78_125);
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(10);

    private readonly ManualTimeProvider _clock = new();
    private readonly TestNode _a;
    private readonly TestNode _b;

    public UdpLinkTransportRateLimitTests()
    {
        var shape = new TorusShape(2, 1, 1);
        var addressing = UdpPeerAddressing.FromBasePort(TestCube.FindFreeBasePort(2));

        // The bucket holds three datagrams; credit never runs short in these tests.
        _a = TestNode.Start(shape, new Coordinate(0, 0, 0), new UdpTransportOptions
        {
            Addressing = addressing,
            ClusterKey = TestCube.Key,
            RateLimitBitsPerSecond = RateBitsPerSecond,
            RateLimitBurstBytes = 3 * DatagramBytes,
            CreditTimeoutMilliseconds = 60_000,
        }, new PacketPool(), new ThreadedEventLoop("rate-limited sender", _clock));
        _b = TestNode.Start(shape, new Coordinate(1, 0, 0), new UdpTransportOptions { Addressing = addressing, ClusterKey = TestCube.Key }, new PacketPool());
    }

    public void Dispose()
    {
        _a.Dispose();
        _b.Dispose();
    }

    [Fact]
    public void ABurstSendsTheBucketsDepthAtOnceAndHoldsTheRestBackWhenNoTimeHasPassed()
    {
        Assert.Equal(10, _a.SendBurst(LinkDirection.PlusX, Frames(0, 10)));

        Assert.Equal((3, 3), Sent());
        Assert.True(_b.Sink.WaitFor(s => s.FrameCount == 3, s_timeout));
        Assert.Equal([0, 1, 2], Received());
    }

    [Fact]
    public void EachHeldBackDatagramLeavesWhenItsBytesHaveAccruedAtTheRateAndNotBefore()
    {
        Assert.Equal(10, _a.SendBurst(LinkDirection.PlusX, Frames(0, 10)));
        Assert.Equal((3, 3), Sent());

        // One tick short of a datagram's time at the rate: the link's timer is not due, nothing leaves.
        AdvanceAndSettle(s_perDatagram - TimeSpan.FromTicks(1));
        Assert.Equal((3, 3), Sent());

        // Then one datagram per datagram's time, in order, until the queue is empty.
        AdvanceAndSettle(TimeSpan.FromTicks(1));
        Assert.Equal((4, 4), Sent());
        for (var sent = 5; sent <= 10; sent++)
        {
            AdvanceAndSettle(s_perDatagram);
            Assert.Equal((sent, sent), Sent());
        }

        Assert.True(_b.Sink.WaitFor(s => s.FrameCount == 10, s_timeout));
        Assert.Equal(Enumerable.Range(0, 10), Received());
    }

    [Fact]
    public void AnIdleLinkSavesNoMoreThanTheBucketsDepthWhenTheNextBurstComes()
    {
        Assert.Equal(3, _a.SendBurst(LinkDirection.PlusX, Frames(0, 3)));
        Assert.Equal((3, 3), Sent());

        // An hour with nothing to send fills the bucket to its three datagrams, no more.
        AdvanceAndSettle(TimeSpan.FromHours(1));
        Assert.Equal(5, _a.SendBurst(LinkDirection.PlusX, Frames(3, 5)));
        Assert.Equal((6, 6), Sent());

        AdvanceAndSettle(s_perDatagram);
        Assert.Equal((7, 7), Sent());
        AdvanceAndSettle(s_perDatagram);
        Assert.Equal((8, 8), Sent());
        Assert.True(_b.Sink.WaitFor(s => s.FrameCount == 8, s_timeout));
        Assert.Equal(Enumerable.Range(0, 8), Received());
    }

    private static byte[][] Frames(int first, int count) =>
        [.. Enumerable.Range(first, count).Select(i =>
        {
            var frame = new byte[FrameBytes];
            BinaryPrimitives.WriteInt32BigEndian(frame, i);
            return frame;
        })];

    /// <summary>Moves the sender's clock; its link timer's callback posts to the loop as it fires, so a no-op posted after it runs after the flush.</summary>
    private void AdvanceAndSettle(TimeSpan delta)
    {
        _clock.Advance(delta);
        LoopAction.Run(_a.Loop, () => { });
    }

    private (long Datagrams, long Frames) Sent()
    {
        var counters = _a.SentCounters(LinkDirection.PlusX);
        return (counters.DatagramsSent, counters.FramesSent);
    }

    private IEnumerable<int> Received() => _b.Sink.Frames.Select(f => BinaryPrimitives.ReadInt32BigEndian(f.Bytes));
}
