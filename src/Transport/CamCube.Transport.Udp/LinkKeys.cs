using System.Buffers.Binary;
using System.Security.Cryptography;
using System.Text;

namespace CamCube.Transport.Udp;

/// <summary>
/// Derives the AES-256-GCM key of one link direction from the cluster key with HKDF-SHA256, so
/// that every (sender, sender link, receiver) triple of a shape has its own key and a counter
/// nonce never repeats under one key across links.
/// </summary>
internal static class LinkKeys
{
    /// <summary>The size of a derived key: AES-256.</summary>
    public const int KeySizeBytes = 32;

    /// <summary>The size of the HKDF info: label, shape, sender, sender link, receiver.</summary>
    public const int InfoSizeBytes = 16 + 12 + 6 + 1 + 6;

    private static readonly byte[] s_salt = Encoding.ASCII.GetBytes("camcube-udp-v1-salt");
    private static readonly byte[] s_label = Encoding.ASCII.GetBytes("camcube-udp-v1 l");

    /// <summary>The all-zero key that stands in for a cluster key when the transport runs insecure.</summary>
    public static ReadOnlySpan<byte> InsecureClusterKey => new byte[ClusterKey.SizeBytes];

    /// <summary>Derives the key for datagrams <paramref name="sender"/> sends on <paramref name="senderLink"/> to <paramref name="receiver"/>.</summary>
    public static byte[] Derive(ReadOnlySpan<byte> clusterKey, TorusShape shape, Coordinate sender, LinkDirection senderLink, Coordinate receiver)
    {
        Span<byte> info = stackalloc byte[InfoSizeBytes];
        s_label.CopyTo(info);
        var offset = s_label.Length;
        BinaryPrimitives.WriteInt32BigEndian(info[offset..], shape.X);
        BinaryPrimitives.WriteInt32BigEndian(info[(offset + 4)..], shape.Y);
        BinaryPrimitives.WriteInt32BigEndian(info[(offset + 8)..], shape.Z);
        offset += 12;
        WriteCoordinate(info[offset..], sender);
        offset += 6;
        info[offset++] = (byte)senderLink;
        WriteCoordinate(info[offset..], receiver);

        var key = new byte[KeySizeBytes];
        HKDF.DeriveKey(HashAlgorithmName.SHA256, clusterKey, key, s_salt, info);
        return key;
    }

    private static void WriteCoordinate(Span<byte> destination, Coordinate c)
    {
        BinaryPrimitives.WriteUInt16BigEndian(destination, (ushort)c.X);
        BinaryPrimitives.WriteUInt16BigEndian(destination[2..], (ushort)c.Y);
        BinaryPrimitives.WriteUInt16BigEndian(destination[4..], (ushort)c.Z);
    }
}
