using System.Buffers.Binary;
using CamCube.Packets;

namespace CamCube.Transport.Udp.Tests;

public sealed class UdpLinkTransportFlowControlTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(30);

    [Theory]
    [InlineData(1_000)]
    [InlineData(100)]
    public void EveryFrameArrivesInOrderPacedByCreditAloneWhenTheSenderGoesAsFastAsItCan(int frameBytes)
    {
        const int FrameCount = 20_000;

        // A credit timeout far beyond the wait below: a link that stalled for want of credit fails the test instead of creeping on.
        using var cube = TestCube.Start(new TorusShape(2, 1, 1), addressing => new UdpTransportOptions
        {
            Addressing = addressing,
            ClusterKey = TestCube.Key,
            CreditTimeoutMilliseconds = 60_000,
        });
        var a = cube.Nodes[0];
        var b = cube.Nodes[1];
        var payload = new byte[frameBytes];
        var queued = 0;
        a.Sink.OnRoom = link =>
        {
            while (queued < FrameCount && a.Transport.HasRoom(link))
            {
                BinaryPrimitives.WriteInt32BigEndian(payload, queued);
                Assert.True(a.Transport.TrySend(link, a.Frame(payload)));
                queued++;
            }
        };

        LoopAction.Run(a.Loop, () => a.Sink.OnRoom(LinkDirection.PlusX));

        Assert.True(b.Sink.WaitFor(s => s.FrameCount == FrameCount, s_timeout), $"{b.Sink.FrameCount} of {FrameCount} frames arrived.");
        Assert.Equal(Enumerable.Range(0, FrameCount), b.Sink.Frames.Select(f => BinaryPrimitives.ReadInt32BigEndian(f.Bytes)));

        // Nothing lost or refused on the way, no credit timed out, and b, which sends nothing
        // back, returned its credit in credit datagrams: at least one per 8 datagrams beyond the
        // first window of 32, at most one per 4.
        var sent = a.SentCounters(LinkDirection.PlusX);
        var received = b.SentCounters(LinkDirection.PlusX);
        Assert.Equal((FrameCount, (long)FrameCount * frameBytes), (sent.FramesSent, sent.FrameBytesSent));
        Assert.Equal((sent.DatagramsSent, FrameCount), (received.DatagramsReceived, received.FramesReceived));
        Assert.Equal((0, 0), (sent.SendErrors, sent.CreditTimeouts));
        Assert.Equal(0, received.DatagramsSent);
        Assert.InRange(received.CreditDatagramsSent, (sent.DatagramsSent - UdpTransportOptions.DefaultDatagramsInFlightMax + 7) / 8, sent.DatagramsSent / UdpLink.CreditEveryDatagramsMin);
        Assert.Equal(0, b.Transport.DroppedReplay + b.Transport.DroppedBadTag + b.Transport.DroppedMalformed + b.Transport.DroppedUnknownSender);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void RepliesCarryTheCreditSoAPingPongSendsNoCreditDatagrams(bool threadedLoop)
    {
        const int Rounds = 200;
        using var cube = TestCube.Start(new TorusShape(2, 1, 1), loop: threadedLoop ? TestLoop.Threaded : TestLoop.Udp);
        var a = cube.Nodes[0];
        var b = cube.Nodes[1];

        // Each side answers a frame from its delivery, as a node's ping service does; a's answer is the next request.
        b.Sink.OnFrame = (link, bytes) => Assert.True(b.Transport.TrySend(link, b.Frame(bytes)));
        a.Sink.OnFrame = (link, bytes) =>
        {
            if (bytes[0] < Rounds - 1)
            {
                Assert.True(a.Transport.TrySend(link, a.Frame([(byte)(bytes[0] + 1)])));
            }
        };

        Assert.Equal(1, a.SendBurst(LinkDirection.PlusX, [[0]]));

        Assert.True(a.Sink.WaitFor(s => s.FrameCount == Rounds, s_timeout), $"{a.Sink.FrameCount} of {Rounds} replies arrived.");
        var sentByA = a.SentCounters(LinkDirection.PlusX);
        var sentByB = b.SentCounters(LinkDirection.PlusX);
        Assert.Equal(Rounds, sentByA.DatagramsSent);
        Assert.Equal(Rounds, sentByB.DatagramsSent);
        Assert.Equal(0, sentByA.CreditDatagramsSent);
        Assert.Equal(0, sentByB.CreditDatagramsSent);
    }

    [Fact]
    public void AReceiverThatSendsNothingBackReturnsCreditInCreditDatagrams()
    {
        const int Datagrams = 40;
        using var cube = TestCube.Start(new TorusShape(2, 1, 1), addressing => new UdpTransportOptions
        {
            Addressing = addressing,
            ClusterKey = TestCube.Key,
            DatagramsInFlightMax = 8,
            CreditTimeoutMilliseconds = 60_000,
        });
        var a = cube.Nodes[0];
        var b = cube.Nodes[1];

        // One frame per burst, one datagram each: five times the credit window, so credit must come back.
        for (var i = 0; i < Datagrams; i++)
        {
            Assert.Equal(1, a.SendBurst(LinkDirection.PlusX, [[(byte)i]]));
        }

        Assert.True(b.Sink.WaitFor(s => s.FrameCount == Datagrams, s_timeout), $"{b.Sink.FrameCount} of {Datagrams} frames arrived.");
        // Frames that waited for credit leave together in one datagram, so count a's datagrams, not
        // frames: at most one credit datagram per 4 of them (fewer when one loop turn reads several),
        // and at least one per window of 8 after the first, or a's link would have waited for the
        // credit timeout.
        var datagrams = a.SentCounters(LinkDirection.PlusX).DatagramsSent;
        Assert.InRange(datagrams, 9, Datagrams);
        Assert.InRange(b.SentCounters(LinkDirection.PlusX).CreditDatagramsSent, (datagrams - 8 + 7) / 8, datagrams / UdpLink.CreditEveryDatagramsMin);
        Assert.Equal(0, b.SentCounters(LinkDirection.PlusX).DatagramsSent);
        Assert.Equal(0, a.SentCounters(LinkDirection.PlusX).CreditTimeouts);
    }

    [Fact]
    public void ASenderWaitsForCreditWhileTheNeighboursLoopIsBusyAndResumesAfter()
    {
        using var cube = TestCube.Start(new TorusShape(2, 1, 1), addressing => new UdpTransportOptions
        {
            Addressing = addressing,
            ClusterKey = TestCube.Key,
            DatagramsInFlightMax = 8,
            FramesInFlightMax = 16,
            CreditTimeoutMilliseconds = 60_000,
        });
        var a = cube.Nodes[0];
        var b = cube.Nodes[1];
        using var busy = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        b.Loop.Post(new BlockingWork(busy, release), 0, 0, null);
        Assert.True(busy.Wait(s_timeout));

        // One frame per burst, so one datagram each: 8 go out on credit, then 16 wait in the queue.
        var taken = 0;
        for (var i = 0; i < 30; i++)
        {
            taken += a.SendBurst(LinkDirection.PlusX, [[(byte)i]]);

            // The burst's flush was posted before this no-op, so it has run when the no-op has.
            LoopAction.Run(a.Loop, () => { });
            Assert.Equal(Math.Min(taken, 8), a.Transport.GetCounters(LinkDirection.PlusX).DatagramsSent);
        }

        Assert.Equal(8 + 16, taken);
        Assert.Equal(8, a.Transport.GetCounters(LinkDirection.PlusX).DatagramsSent);
        Assert.False(LoopAction.Run(a.Loop, () => a.Transport.HasRoom(LinkDirection.PlusX)));

        release.Set();

        Assert.True(b.Sink.WaitFor(s => s.FrameCount == 24, s_timeout), $"{b.Sink.FrameCount} of 24 frames arrived.");
        Assert.Equal(Enumerable.Range(0, 24), b.Sink.Frames.Select(f => (int)f.Bytes[0]));
        Assert.True(LoopAction.Run(a.Loop, () => a.Transport.HasRoom(LinkDirection.PlusX)));
        Assert.Equal(0, a.Transport.GetCounters(LinkDirection.PlusX).CreditTimeouts);
    }

    [Fact]
    public void ALinkWhoseNeighbourIsSilentTakesItsDatagramsAsLostAfterTheCreditTimeout()
    {
        var basePort = TestCube.FindFreeBasePort(2);
        using var node = TestNode.Start(new TorusShape(2, 1, 1), new Coordinate(0, 0, 0), new UdpTransportOptions
        {
            Addressing = UdpPeerAddressing.FromBasePort(basePort),
            ClusterKey = TestCube.Key,
            DatagramsInFlightMax = 8,
            CreditTimeoutMilliseconds = 50,
        });

        // Nobody listens at (1,0,0): after 8 datagrams the link waits, then times out and goes on.
        for (var i = 0; i < 20; i++)
        {
            node.SendBurst(LinkDirection.PlusX, [[(byte)i]]);
        }

        // The 12 frames that waited leave together in the ninth datagram.
        // (No sink event marks it: room is reported only to a node that found none.)
        Assert.True(SpinWait.SpinUntil(() => node.Transport.GetCounters(LinkDirection.PlusX).FramesSent == 20, s_timeout));
        var counters = node.Transport.GetCounters(LinkDirection.PlusX);
        Assert.Equal(9, counters.DatagramsSent);
        Assert.Equal(1, counters.CreditTimeouts);
    }

    private sealed class BlockingWork(ManualResetEventSlim busy, ManualResetEventSlim release) : ILoopWork
    {
        public void Execute(int code, int argument, Packet? packet)
        {
            busy.Set();
            release.Wait();
        }
    }
}
