using System.Buffers.Binary;
using System.Security.Cryptography;

namespace CamCube.Transport.Udp;

/// <summary>
/// The layout of one UDP datagram, format version 2 (README.md in this project):
/// a 12-byte header (magic, version, sender link, kind, 64-bit counter), the body encrypted with
/// AES-256-GCM (an 8-byte credit, then the length-prefixed frames of a frames datagram), then the
/// 16-byte tag. The header is the nonce, which GCM authenticates (the tag depends on it), so no
/// associated data is passed: one call into the cryptography library fewer per datagram.
/// </summary>
internal static class UdpDatagram
{
    /// <summary>The first byte of every datagram.</summary>
    public const byte Magic = 0xCC;

    /// <summary>The datagram format version this build writes and accepts.</summary>
    public const byte Version = 2;

    /// <summary>The size of the header, which is also the AES-GCM nonce (and so authenticated).</summary>
    public const int HeaderSizeBytes = 12;

    /// <summary>The size of the AES-GCM tag at the end.</summary>
    public const int TagSizeBytes = 16;

    /// <summary>The size of the credit at the start of every body: the highest frames counter received on the link, or 0.</summary>
    public const int CreditSizeBytes = 8;

    /// <summary>Where the credit starts (the first encrypted byte).</summary>
    public const int CreditOffset = HeaderSizeBytes;

    /// <summary>Where a frames datagram's frames start.</summary>
    public const int FramesOffset = HeaderSizeBytes + CreditSizeBytes;

    /// <summary>Header, credit and tag: what a datagram adds to its frames (a credit datagram is exactly this long).</summary>
    public const int OverheadBytes = HeaderSizeBytes + CreditSizeBytes + TagSizeBytes;

    /// <summary>The kind of a datagram that carries frames.</summary>
    public const byte KindFrames = 0;

    /// <summary>The kind of a datagram that only returns credit: its body is the credit alone.</summary>
    public const byte KindCredit = 1;

    /// <summary>The size of a frame's length prefix.</summary>
    public const int LengthPrefixBytes = 2;

    /// <summary>The largest UDP payload over IPv4.</summary>
    public const int UdpPayloadBytesMax = 65_507;

    /// <summary>The most bytes of length-prefixed frames a datagram can carry.</summary>
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

    /// <summary>Writes the (plaintext) credit after the header: the highest frames counter received on the link, or 0.</summary>
    public static void WriteCredit(Span<byte> datagram, ulong credit) =>
        BinaryPrimitives.WriteUInt64BigEndian(datagram[CreditOffset..], credit);

    /// <summary>
    /// Seals a datagram whose header, credit and <paramref name="framesLength"/> bytes of plaintext
    /// frames are in place: encrypts the body (credit and frames) in place and appends the tag.
    /// Returns the datagram's length.
    /// </summary>
    public static int Seal(AesGcm aead, Span<byte> datagram, int framesLength)
    {
        var header = datagram[..HeaderSizeBytes];
        var body = datagram.Slice(HeaderSizeBytes, CreditSizeBytes + framesLength);
        var tag = datagram.Slice(FramesOffset + framesLength, TagSizeBytes);
        aead.Encrypt(header, body, body, tag);
        return OverheadBytes + framesLength;
    }

    /// <summary>
    /// Opens a datagram in place: checks the tag and decrypts the body. Returns false (and leaves
    /// the body unspecified) if the tag does not match.
    /// </summary>
    public static bool TryOpen(AesGcm aead, Span<byte> datagram)
    {
        var bodyLength = datagram.Length - HeaderSizeBytes - TagSizeBytes;
        var header = datagram[..HeaderSizeBytes];
        var body = datagram.Slice(HeaderSizeBytes, bodyLength);
        var tag = datagram.Slice(HeaderSizeBytes + bodyLength, TagSizeBytes);
        try
        {
            aead.Decrypt(header, body, tag, body);
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
