using CamCube.Packets;

namespace CamCube.UdpDrivers;

/// <summary>Sizes of the UDP transport's datagrams (src/Transport/CamCube.Transport.Udp/README.md, format version 2).</summary>
internal static class DatagramSizes
{
    /// <summary>Header (12: magic, version, link id, kind, counter), credit (8) and the AES-GCM tag (16).</summary>
    public const int OverheadBytes = 12 + 8 + 16;

    /// <summary>The 2-byte length in front of each frame in a datagram's body.</summary>
    public const int LengthPrefixBytes = 2;

    /// <summary>The datagram that carries one frame of <paramref name="frameBytes"/> alone.</summary>
    public static int ForOneFrame(int frameBytes) => OverheadBytes + LengthPrefixBytes + frameBytes;

    /// <summary>A ping: packet header plus the ping payload (15 bytes), alone in its datagram.</summary>
    public static int Ping => ForOneFrame(PacketHeader.SizeBytes + 15);

    /// <summary>A full-size frame (a whole pooled packet), alone in its datagram.</summary>
    public static int FullFrame => ForOneFrame(PacketPool.DefaultPacketCapacityBytes);
}
