using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;

namespace CamCube.Transport.Udp.Tests;

/// <summary>Hostile input on a <see cref="UdpEventLoop"/>, which reads the socket itself.</summary>
public sealed class UdpLinkTransportHostileInputOnUdpLoopTests() : UdpLinkTransportHostileInputTests(TestLoop.Udp)
{
    [Fact]
    public void WakeDatagramsAreNeverCountedAsHostile()
    {
        var loop = Victim.UdpLoop!;
        for (var i = 0; i < 20; i++)
        {
            // Each post from this thread finds the loop blocked on its socket and wakes it.
            Assert.True(SpinWait.SpinUntil(() => loop.IsBlockedInSocket, s_timeout));
            Assert.Equal(i, LoopAction.Run(Victim.Loop, () => i));
        }

        Assert.True(loop.WakeDatagramsSent >= 20);
        Assert.True(SpinWait.SpinUntil(() => loop.WakeDatagramsReceived == loop.WakeDatagramsSent, s_timeout));
        AssertStillDelivers();
        AssertOtherDropsAre();
    }
}

/// <summary>Hostile input on a threaded loop with the transport's receive thread.</summary>
public sealed class UdpLinkTransportHostileInputOnThreadedLoopTests() : UdpLinkTransportHostileInputTests(TestLoop.Threaded);

/// <summary>What a node does with hostile datagrams, on either loop.</summary>
#pragma warning disable CA1708 // The derived classes' names differ only by the loop.
public abstract class UdpLinkTransportHostileInputTests : IDisposable
#pragma warning restore CA1708
{
    private protected static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(10);
    private readonly TestCube _cube;
    private readonly TestNode _victim;
    private readonly HostileNeighbour _neighbour;
    private int _deliveredProbes;

    private protected UdpLinkTransportHostileInputTests(TestLoop loop)
    {
        _cube = TestCube.Start(HostileNeighbour.Shape, include: c => c == HostileNeighbour.Victim, loop: loop);
        _victim = _cube.Nodes[0];
        _neighbour = new HostileNeighbour(_cube.BasePort);
    }

    private protected TestNode Victim => _victim;

    public void Dispose()
    {
        _cube.Dispose();
        _neighbour.Dispose();
        GC.SuppressFinalize(this);
    }

    [Fact]
    public void DatagramIsTheHeaderThenSealedLengthPrefixedFramesThenTheTag()
    {
        var before = TimeProvider.System.GetUtcNow().UtcTicks;
        Assert.Equal(2, _victim.SendBurst(LinkDirection.PlusX, [[1, 2, 3], [4, 5]]));

        var (raw, opened) = _neighbour.ReceiveAndOpen();

        Assert.Equal(12 + 8 + 2 + 3 + 2 + 2 + 16, raw.Length);
        Assert.Equal([0xCC, 2, (byte)LinkDirection.PlusX, 0], raw[..4]);
        var counter = BinaryPrimitives.ReadUInt64BigEndian(raw.AsSpan(4));
        Assert.InRange((long)counter, before - TimeSpan.TicksPerMinute, before + TimeSpan.TicksPerMinute);

        // Nothing received from the neighbour yet: the credit is 0.
        Assert.Equal(new byte[8], opened[12..20]);
        Assert.Equal([0, 3, 1, 2, 3, 0, 2, 4, 5], opened[20..^16]);
        Assert.NotEqual(opened[12..^16], raw[12..^16]);
    }

    [Fact]
    public void AFramesDatagramCarriesTheHighestCounterReceivedOnItsLinkAsCredit()
    {
        _neighbour.Send(_neighbour.Seal(5_000, [1]));
        _neighbour.Send(_neighbour.Seal(5_002, [2]));
        _neighbour.Send(_neighbour.Seal(5_001, [3]));
        Assert.True(_victim.Sink.WaitFor(s => s.FrameCount == 3, s_timeout));

        Assert.Equal(1, _victim.SendBurst(LinkDirection.PlusX, [[9]]));

        var (_, opened) = _neighbour.ReceiveAndOpen();
        Assert.Equal(5_002UL, BinaryPrimitives.ReadUInt64BigEndian(opened.AsSpan(12)));
        Assert.Equal([0, 1, 9], opened[20..^16]);
    }

    [Fact]
    public void ACreditDatagramWithFramesAfterItsCreditIsDroppedAsMalformed()
    {
        _neighbour.Send(_neighbour.SealWithCredit(1, UdpDatagram.KindCredit, HostileNeighbour.FramesPart([1, 2])));

        AssertStillDelivers();
        AssertOtherDropsAre(malformed: 1);
    }

    [Fact]
    public void AFramesDatagramWithoutFramesIsDroppedAsMalformed()
    {
        _neighbour.Send(_neighbour.SealWithCredit(1, UdpDatagram.KindFrames, []));

        AssertStillDelivers();
        AssertOtherDropsAre(malformed: 1);
    }

    [Fact]
    public void TamperedDatagramIsDroppedAndCountedAndTheLinkKeepsWorking()
    {
        var datagram = _neighbour.Seal([7, 7, 7]);
        datagram[UdpDatagram.HeaderSizeBytes + 3] ^= 0x10;

        _neighbour.Send(datagram);

        AssertStillDelivers();
        Assert.Equal(1, _victim.Transport.DroppedBadTag);
        AssertOtherDropsAre(badTag: 1);
    }

    [Theory]
    [InlineData(UdpDatagram.KindOffset, 0x01)]
    [InlineData(UdpDatagram.CounterOffset + 7, 0x01)]
    [InlineData(UdpDatagram.CounterOffset, 0x80)]
    public void AHeaderChangedOnTheWayFailsTheTagBecauseTheHeaderIsTheNonce(int offset, byte flip)
    {
        var datagram = _neighbour.Seal([7, 7, 7]);
        datagram[offset] ^= flip;

        _neighbour.Send(datagram);

        AssertStillDelivers();
        AssertOtherDropsAre(badTag: 1);
    }

    [Fact]
    public void ReplayedDatagramIsDroppedAndCounted()
    {
        var datagram = _neighbour.Seal([42]);
        _neighbour.Send(datagram);
        Assert.True(_victim.Sink.WaitFor(s => s.FrameCount == 1, s_timeout));

        _neighbour.Send(datagram);

        AssertStillDelivers();
        Assert.Equal(1, _victim.Transport.DroppedReplay);
        Assert.Equal(2 + 1, _victim.Sink.FrameCount);
        AssertOtherDropsAre(replay: 1);
    }

    [Fact]
    public void DatagramTooFarBehindTheNewestIsDroppedAsAReplayButOneOutOfOrderInTheWindowIsTaken()
    {
        _neighbour.Send(_neighbour.Seal(10_000, [1]));
        _neighbour.Send(_neighbour.Seal(9_990, [2]));
        _neighbour.Send(_neighbour.Seal(10_000 - ReplayWindow.WindowCounters, [3]));
        _neighbour.Send(_neighbour.Seal(10_001, [4]));

        Assert.True(_victim.Sink.WaitFor(s => s.FrameCount == 3, s_timeout));
        Assert.Equal([1, 2, 4], _victim.Sink.Frames.Select(f => (int)f.Bytes[0]));
        Assert.Equal(1, _victim.Transport.DroppedReplay);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(12)]
    [InlineData(29)]
    [InlineData(35)]
    public void TruncatedDatagramIsDroppedAndCounted(int length)
    {
        _neighbour.Send(_neighbour.Seal([1, 2, 3, 4, 5, 6])[..length]);

        AssertStillDelivers();
        Assert.Equal(1, _victim.Transport.DroppedMalformed);
        AssertOtherDropsAre(malformed: 1);
    }

    [Fact]
    public void DatagramCutShortAfterTheHeaderFailsItsTag()
    {
        var datagram = _neighbour.Seal([1, 2, 3, 4, 5, 6], [7, 8, 9]);
        _neighbour.Send(datagram[..^5]);

        AssertStillDelivers();
        AssertOtherDropsAre(badTag: 1);
    }

    [Fact]
    public void OversizedDatagramIsDroppedAndCounted()
    {
        var datagram = new byte[_victim.Transport.DatagramBytesMax + 1];
        datagram[0] = UdpDatagram.Magic;
        datagram[1] = UdpDatagram.Version;
        _neighbour.Send(datagram);

        AssertStillDelivers();
        AssertOtherDropsAre(malformed: 1);
    }

    [Fact]
    public void DatagramFromASocketThatIsNotANeighbourIsDroppedAndCounted()
    {
        using var stranger = new Socket(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp);
        stranger.Bind(new IPEndPoint(IPAddress.Loopback, 0));

        // Even a datagram sealed with the right key is refused from the wrong address, and never answered.
        stranger.SendTo(_neighbour.Seal([1]), _neighbour.VictimEndPoint);
        stranger.SendTo(new byte[] { 1, 2, 3 }, _neighbour.VictimEndPoint);

        AssertStillDelivers();
        AssertOtherDropsAre(unknownSender: 2);
        Assert.Equal(0, stranger.Available);
    }

    [Fact]
    public void DatagramWithAnotherSenderLinkIsDroppedAsFromAnUnknownSender()
    {
        var datagram = _neighbour.Seal([1]);
        datagram[UdpDatagram.SenderLinkOffset] = (byte)LinkDirection.PlusY;
        _neighbour.Send(datagram);

        AssertStillDelivers();
        AssertOtherDropsAre(unknownSender: 1);
    }

    [Theory]
    [InlineData(new byte[] { 0, 9, 1, 2, 3 })]
    [InlineData(new byte[] { 0, 0, 1, 2 })]
    [InlineData(new byte[] { 0, 1, 7, 0 })]
    public void AuthenticDatagramWithAMalformedBodyIsDroppedAndCounted(byte[] body)
    {
        _neighbour.Send(_neighbour.SealBody(body));

        AssertStillDelivers();
        AssertOtherDropsAre(malformed: 1);
    }

    [Fact]
    public void AuthenticFrameLargerThanThePoolsPacketsIsDroppedAsMalformed()
    {
        _neighbour.Send(_neighbour.Seal(new byte[_victim.Pool.PacketCapacityBytes + 1]));

        AssertStillDelivers();
        AssertOtherDropsAre(malformed: 1);
    }

    [Fact]
    public void ThousandsOfRandomDatagramsFromANeighbourAreAllDroppedAndCounted()
    {
        var random = new Random(1234);
        const int Rounds = 30;
        const int PerRound = 100;
        for (var i = 0; i < Rounds * PerRound; i++)
        {
            if (i % PerRound == 0)
            {
                // Keep within the socket's receive buffer: the kernel would drop, and not count, the excess.
                AssertStillDelivers();
            }

            var datagram = new byte[random.Next(0, 200)];
            random.NextBytes(datagram);
            if (i % 2 == 0 && datagram.Length >= UdpDatagram.HeaderSizeBytes)
            {
                // Half of them with a plausible header, so that they reach the tag check.
                UdpDatagram.WriteHeader(datagram, LinkDirection.PlusX, (ulong)random.NextInt64());
            }

            _neighbour.Send(datagram);
        }

        AssertStillDelivers();
        var t = _victim.Transport;
        Assert.Equal(Rounds * PerRound, t.DroppedMalformed + t.DroppedBadTag + t.DroppedReplay + t.DroppedUnknownSender);
    }

    /// <summary>
    /// Sends a valid probe after the hostile datagrams and waits for it: one socket's datagrams on
    /// loopback arrive in order, so every earlier datagram has been handled when the probe arrives.
    /// </summary>
    private protected void AssertStillDelivers()
    {
        var expected = _victim.Sink.FrameCount + 2;
        _neighbour.Send(_neighbour.Seal([0xAB, (byte)_deliveredProbes], [0xCD]));
        _deliveredProbes++;
        Assert.True(_victim.Sink.WaitFor(s => s.FrameCount == expected, s_timeout), "The transport still delivers valid frames.");
        Assert.Equal([0xCD], _victim.Sink.Frames[^1].Bytes);
        Assert.Equal(LinkDirection.PlusX, _victim.Sink.Frames[^1].Link);
    }

    private protected void AssertOtherDropsAre(int unknownSender = 0, int badTag = 0, int replay = 0, int malformed = 0)
    {
        var t = _victim.Transport;
        Assert.Equal((unknownSender, badTag, replay, malformed), (t.DroppedUnknownSender, t.DroppedBadTag, t.DroppedReplay, t.DroppedMalformed));
    }
}
