using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;
using System.Security.Cryptography;

namespace CamCube.Transport.Udp.Tests;

/// <summary>
/// A test's stand-in for node (1,0,0) of a 2x1x1 cube: a plain socket at that node's address,
/// which captures what (0,0,0) sends it and crafts datagrams as (1,0,0) would, with the cluster key.
/// </summary>
internal sealed class HostileNeighbour : IDisposable
{
    public static readonly TorusShape Shape = new(2, 1, 1);
    public static readonly Coordinate Victim = new(0, 0, 0);
    public static readonly Coordinate Self = new(1, 0, 0);

    private readonly AesGcm _sendAead;
    private readonly AesGcm _receiveAead;
    private ulong _counter = 1_000;

    public HostileNeighbour(int basePort)
    {
        Socket = new Socket(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp);
        Socket.Bind(new IPEndPoint(IPAddress.Loopback, basePort + 1));
        Socket.ReceiveTimeout = 10_000;
        VictimEndPoint = new IPEndPoint(IPAddress.Loopback, basePort);
        _sendAead = new AesGcm(LinkKeys.Derive(TestCube.Key.Bytes, Shape, Self, LinkDirection.PlusX, Victim), UdpDatagram.TagSizeBytes);
        _receiveAead = new AesGcm(LinkKeys.Derive(TestCube.Key.Bytes, Shape, Victim, LinkDirection.PlusX, Self), UdpDatagram.TagSizeBytes);
    }

    public Socket Socket { get; }

    public IPEndPoint VictimEndPoint { get; }

    /// <summary>Builds a valid datagram carrying <paramref name="frames"/>, with the next counter.</summary>
    public byte[] Seal(params byte[][] frames) => Seal(_counter++, frames);

    public byte[] Seal(ulong counter, params byte[][] frames) => SealBody(counter, FramesPart(frames));

    /// <summary>Seals any frames part, well-formed or not, with the next counter (no credit).</summary>
    public byte[] SealBody(byte[] body) => SealBody(_counter++, body);

    /// <summary>Seals a datagram of <paramref name="kind"/> returning <paramref name="credit"/>, with <paramref name="frames"/> after the credit, with the next counter.</summary>
    public byte[] SealWithCredit(ulong credit, byte kind, byte[] frames) => SealBody(_counter++, frames, credit, kind);

    private byte[] SealBody(ulong counter, byte[] body, ulong credit = 0, byte kind = UdpDatagram.KindFrames)
    {
        var datagram = new byte[UdpDatagram.OverheadBytes + body.Length];
        UdpDatagram.WriteHeader(datagram, LinkDirection.PlusX, counter, kind);
        UdpDatagram.WriteCredit(datagram, credit);
        body.CopyTo(datagram, UdpDatagram.FramesOffset);
        UdpDatagram.Seal(_sendAead, datagram, body.Length);
        return datagram;
    }

    /// <summary>The length-prefixed frames part of a datagram carrying <paramref name="frames"/>.</summary>
    public static byte[] FramesPart(params byte[][] frames)
    {
        var body = new byte[frames.Sum(f => 2 + f.Length)];
        var offset = 0;
        foreach (var f in frames)
        {
            BinaryPrimitives.WriteUInt16BigEndian(body.AsSpan(offset), (ushort)f.Length);
            f.CopyTo(body, offset + 2);
            offset += 2 + f.Length;
        }

        return body;
    }

    public void Send(byte[] datagram) => Socket.SendTo(datagram, VictimEndPoint);

    /// <summary>Receives one datagram the victim sent and opens it; returns the raw and opened bytes.</summary>
    public (byte[] Raw, byte[] Opened) ReceiveAndOpen()
    {
        var buffer = new byte[65_536];
        var n = Socket.Receive(buffer);
        var raw = buffer.AsSpan(0, n).ToArray();
        var opened = raw.ToArray();
        Assert.True(UdpDatagram.TryOpen(_receiveAead, opened), "The datagram opens with the key derived for (0,0,0) +x -> (1,0,0).");
        return (raw, opened);
    }

    public void Dispose()
    {
        Socket.Dispose();
        _sendAead.Dispose();
        _receiveAead.Dispose();
    }
}
