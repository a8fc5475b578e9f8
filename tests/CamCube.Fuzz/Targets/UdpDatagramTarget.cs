using System.Net;
using CamCube.Packets;
using CamCube.Runtime.Loops;
using CamCube.Transport;
using CamCube.Transport.Udp;

namespace CamCube.Fuzz.Targets;

/// <summary>
/// The UDP datagram opener: each record is one datagram that node (0,0,0) of a 3x1x1 cube receives,
/// from (1,0,0) or (2,0,0) or a stranger, handed to the transport's receive path
/// (<see cref="UdpLinkTransport.HandleDatagram"/>) as its socket would. A record the control byte
/// marks as sealed is the header and plaintext body, sealed here with the sender's real key, so the
/// fuzzer also reaches what follows authentication (frames, credit, the replay window); the seal is
/// the transport's public <see cref="UdpDatagramSealer"/>, and the kept seeds are made with its own
/// header writer by tests/CamCube.Transport.Udp.Tests (UdpFuzzSeeds). Dropping a
/// datagram is the documented rejection; an exception is a finding (the real receive path would
/// only count it as malformed).
/// </summary>
public sealed class UdpDatagramTarget : IFuzzTarget
{
    /// <summary>Control bit: seal the record with the sender's key before it arrives.</summary>
    public const byte Sealed = 1;

    /// <summary>Control bit: the sender is (2,0,0), the -x neighbour, rather than (1,0,0).</summary>
    public const byte FromMinusX = 2;

    /// <summary>Control bit: the sender is an address that is no neighbour.</summary>
    public const byte FromStranger = 4;

    private const int NeighbourBasePort = 40_000;
    private static readonly TorusShape s_shape = new(3, 1, 1);
    private static readonly Coordinate s_victim = new(0, 0, 0);
    private static readonly ClusterKey s_key = ClusterKey.FromBytes(Enumerable.Range(100, ClusterKey.SizeBytes).Select(i => (byte)i).ToArray());

    /// <inheritdoc/>
    public string Name => "udp";

    /// <inheritdoc/>
    public string Description => "datagrams into the UDP transport's receive path (UdpDatagram, ClusterKey's link keys)";

    /// <inheritdoc/>
    public void Run(byte[] input)
    {
        ArgumentNullException.ThrowIfNull(input);
        var loop = new DeterministicEventLoop();
        var pool = new PacketPool();
        var options = new UdpTransportOptions
        {
            Addressing = UdpPeerAddressing.FromBasePort(NeighbourBasePort),
            BindEndPoint = new IPEndPoint(IPAddress.Loopback, 0),
            ClusterKey = s_key,
        };
        using var transport = new UdpLinkTransport(s_shape, s_victim, loop, pool, options);
        var sink = new ReleasingSink();
        transport.Start(sink);
        try
        {
            foreach (var (control, body) in InputRecords.Split(input))
            {
                var (sender, from) = Sender(control);
                var datagram = (control & Sealed) != 0 ? Seal(body, sender) : body.ToArray();
                transport.HandleDatagram(datagram, from.Serialize());
                loop.RunUntilIdle();
            }
        }
        finally
        {
            transport.Stop();
            loop.RunUntilIdle();
        }
    }

    private static (Coordinate Sender, IPEndPoint From) Sender(byte control)
    {
        var sender = (control & FromMinusX) != 0 ? new Coordinate(2, 0, 0) : new Coordinate(1, 0, 0);
        var port = (control & FromStranger) != 0 ? NeighbourBasePort + 7 : NeighbourBasePort + (int)s_shape.IndexOf(sender);
        return (sender, new IPEndPoint(IPAddress.Loopback, port));
    }

    /// <summary>Seals header, credit and frames as <paramref name="sender"/> would on the link its header names; too short to seal, it goes as it is.</summary>
    private static byte[] Seal(ArraySegment<byte> body, Coordinate sender)
    {
        if (body.Count < UdpDatagramSealer.UnsealedBytesMin)
        {
            return body.ToArray();
        }

        var named = body[UdpDatagramSealer.SenderLinkOffset];
        var senderLink = named < LinkDirections.Count ? (LinkDirection)named : LinkDirection.PlusX;
        return new UdpDatagramSealer(s_key, s_shape, sender, s_victim).Seal(body, senderLink);
    }

    /// <summary>Takes what the transport delivers and releases it.</summary>
    private sealed class ReleasingSink : ITransportSink
    {
        public void OnFrameReceived(LinkDirection link, Packet frame) => frame.Release();

        public void OnLinkRoom(LinkDirection link)
        {
        }

        public void OnLinkStatus(LinkDirection link, bool up)
        {
        }
    }
}
