using System.Buffers.Binary;
using System.Security.Cryptography;

namespace CamCube.Transport.Udp;

/// <summary>
/// The layout of one UDP datagram, format version 1 (README.md in this project):
/// a 12-byte header (magic, version, sender link, kind, 64-bit counter), the body (length-prefixed
/// frames, or a credit) encrypted with AES-256-GCM, then the 16-byte tag. The header is the
/// nonce and the associated data.
/// </summary>
internal static class UdpDatagram
{
    /// <summary>The first byte of every datagram.</summary>
    public const byte Magic = 0xCC;

    /// <summary>The datagram format version this build writes and accepts.</summary>
    public const byte Version = 1;

    /// <summary>The size of the header, which is also the AES-GCM nonce.</summary>
    public const int HeaderSizeBytes = 12;

    /// <summary>The size of the AES-GCM tag at the end.</summary>
    public const int TagSizeBytes = 16;

    /// <summary>Header plus tag: what a datagram adds to its body.</summary>
    public const int OverheadBytes = HeaderSizeBytes + TagSizeBytes;

    /// <summary>The kind of a datagram that carries frames.</summary>
    public const byte KindFrames = 0;

    /// <summary>The kind of a datagram that returns credit: its body is the highest frames counter received.</summary>
    public const byte KindCredit = 1;

    /// <summary>The size of a credit body.</summary>
    public const int CreditBodyBytes = 8;

    /// <summary>The size of a frame's length prefix.</summary>
    public const int LengthPrefixBytes = 2;

    /// <summary>The largest UDP payload over IPv4.</summary>
    public const int UdpPayloadBytesMax = 65_507;

    /// <summary>The largest body a datagram can carry.</summary>
    public const int BodyBytesMax = UdpPayloadBytesMax - OverheadBytes;

    public const int MagicOffset = 0;
    public const int VersionOffset = 1;
    public const int SenderLinkOffset = 2;
    public const int KindOffset = 3;
    public const int CounterOffset = 4;

    /// <summary>Writes the header into the first <see cref="HeaderSizeBytes"/> bytes of <paramref name="datagram"/>.</summary>
    public static void WriteHeader(Span<byte> datagram, LinkDirection senderLink, ulong counter, byte kind = KindFrames)
    {
        datagram[MagicOffset] = Magic;
        datagram[VersionOffset] = Version;
        datagram[SenderLinkOffset] = (byte)senderLink;
        datagram[KindOffset] = kind;
        BinaryPrimitives.WriteUInt64BigEndian(datagram[CounterOffset..], counter);
    }

    /// <summary>
    /// Seals a datagram whose header and plaintext body of <paramref name="bodyLength"/> bytes are
    /// in place: encrypts the body in place and appends the tag. Returns the datagram's length.
    /// </summary>
    public static int Seal(AesGcm aead, Span<byte> datagram, int bodyLength)
    {
        var header = datagram[..HeaderSizeBytes];
        var body = datagram.Slice(HeaderSizeBytes, bodyLength);
        var tag = datagram.Slice(HeaderSizeBytes + bodyLength, TagSizeBytes);
        aead.Encrypt(header, body, body, tag, header);
        return OverheadBytes + bodyLength;
    }

    /// <summary>
    /// Opens a datagram in place: checks the tag and decrypts the body. Returns false (and leaves
    /// the body unspecified) if the tag does not match.
    /// </summary>
    public static bool TryOpen(AesGcm aead, Span<byte> datagram)
    {
        var bodyLength = datagram.Length - OverheadBytes;
        var header = datagram[..HeaderSizeBytes];
        var body = datagram.Slice(HeaderSizeBytes, bodyLength);
        var tag = datagram.Slice(HeaderSizeBytes + bodyLength, TagSizeBytes);
        try
        {
            aead.Decrypt(header, body, tag, body, header);
            return true;
        }
        catch (AuthenticationTagMismatchException)
        {
            return false;
        }
    }

    /// <summary>
    /// Checks that a decrypted body is a sequence of frames, each a 2-byte big-endian length from
    /// 1 to <paramref name="frameBytesMax"/> followed by that many bytes, filling the body exactly.
    /// Returns the number of frames, or -1 if the body is malformed.
    /// </summary>
    public static int CountFrames(ReadOnlySpan<byte> body, int frameBytesMax)
    {
        var count = 0;
        var offset = 0;
        while (offset < body.Length)
        {
            if (body.Length - offset < LengthPrefixBytes)
            {
                return -1;
            }

            int length = BinaryPrimitives.ReadUInt16BigEndian(body[offset..]);
            offset += LengthPrefixBytes;
            if (length == 0 || length > frameBytesMax || length > body.Length - offset)
            {
                return -1;
            }

            offset += length;
            count++;
        }

        return count;
    }
}
