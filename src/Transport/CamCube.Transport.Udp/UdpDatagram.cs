using System.Buffers.Binary;
using System.Security.Cryptography;

namespace CamCube.Transport.Udp;

/// <summary>
/// The layout of one UDP datagram, format version 3 (README.md in this project): a 12-byte header
/// (magic, version, sender link, kind, 64-bit counter), the body (an 8-byte credit, then the
/// length-prefixed frames of a frames datagram), then the 16-byte AES-256-GCM tag. The header is
/// the nonce, which GCM authenticates. The credit and the first frame's length prefix travel in the
/// clear as associated data (authenticated, not encrypted); the rest of the body is encrypted, so a
/// datagram of one frame (every full-size frame) is sealed straight from the frame's packet into
/// the datagram and opened straight into a pooled packet, with no copy of the frame.
/// </summary>
internal static class UdpDatagram
{
    /// <summary>The first byte of every datagram.</summary>
    public const byte Magic = 0xCC;

    /// <summary>The datagram format version this build writes and accepts.</summary>
    public const byte Version = 3;

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

    /// <summary>Where a frames datagram's encrypted bytes start: after the credit and the first frame's length prefix, which are associated data.</summary>
    public const int SealedFramesOffset = FramesOffset + LengthPrefixBytes;

    /// <summary>The shortest frames datagram: one frame of one byte.</summary>
    public const int FramesDatagramBytesMin = OverheadBytes + LengthPrefixBytes + 1;

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
    /// frames are in place: authenticates the credit and the first length prefix, encrypts the rest
    /// of the body in place and appends the tag. Returns the datagram's length.
    /// </summary>
    public static int Seal(AesGcm aead, Span<byte> datagram, int framesLength)
    {
        var clearBytes = Math.Min(ClearBodyBytes(datagram), CreditSizeBytes + framesLength);
        var sealedBytes = CreditSizeBytes + framesLength - clearBytes;
        var body = datagram.Slice(CreditOffset + clearBytes, sealedBytes);
        aead.Encrypt(datagram[..HeaderSizeBytes], body, body, datagram.Slice(FramesOffset + framesLength, TagSizeBytes), datagram.Slice(CreditOffset, clearBytes));
        return OverheadBytes + framesLength;
    }

    /// <summary>
    /// Seals a datagram of one frame whose header and credit are in place: writes the frame's
    /// length prefix and encrypts <paramref name="frame"/> from where it is (its packet) into the
    /// datagram, with no copy of the plaintext. Returns the datagram's length.
    /// </summary>
    public static int SealFrame(AesGcm aead, Span<byte> datagram, ReadOnlySpan<byte> frame)
    {
        BinaryPrimitives.WriteUInt16BigEndian(datagram[FramesOffset..], (ushort)frame.Length);
        aead.Encrypt(
            datagram[..HeaderSizeBytes],
            frame,
            datagram.Slice(SealedFramesOffset, frame.Length),
            datagram.Slice(SealedFramesOffset + frame.Length, TagSizeBytes),
            datagram.Slice(CreditOffset, CreditSizeBytes + LengthPrefixBytes));
        return SealedFramesOffset + frame.Length + TagSizeBytes;
    }

    /// <summary>
    /// Opens a datagram in place: checks the tag and decrypts the body. Returns false (and leaves
    /// the body unspecified) if the tag does not match. A frames datagram must be at least
    /// <see cref="FramesDatagramBytesMin"/> long, a credit datagram at least <see cref="OverheadBytes"/>.
    /// </summary>
    public static bool TryOpen(AesGcm aead, Span<byte> datagram)
    {
        var framesLength = datagram.Length - OverheadBytes;
        var clearBytes = Math.Min(ClearBodyBytes(datagram), CreditSizeBytes + framesLength);
        var body = datagram.Slice(CreditOffset + clearBytes, CreditSizeBytes + framesLength - clearBytes);
        return TryDecrypt(aead, datagram, body, body, clearBytes);
    }

    /// <summary>
    /// Opens a datagram of one frame (its first length prefix covers the whole rest of the body)
    /// straight into <paramref name="destination"/>, leaving the datagram as it is. Returns false
    /// (and leaves <paramref name="destination"/> unspecified) if the tag does not match.
    /// </summary>
    public static bool TryOpenFrame(AesGcm aead, ReadOnlySpan<byte> datagram, Span<byte> destination)
    {
        var frame = datagram[SealedFramesOffset..^TagSizeBytes];
        return TryDecrypt(aead, datagram, frame, destination[..frame.Length], CreditSizeBytes + LengthPrefixBytes);
    }

    /// <summary>
    /// Gets whether a frames datagram holds exactly one frame, by its first length prefix (clear
    /// text, not yet authenticated): then <see cref="TryOpenFrame"/> opens it into a packet.
    /// </summary>
    public static bool IsSingleFrame(ReadOnlySpan<byte> datagram, int frameBytesMax)
    {
        int length = BinaryPrimitives.ReadUInt16BigEndian(datagram[FramesOffset..]);
        return length >= 1 && length <= frameBytesMax && length == datagram.Length - SealedFramesOffset - TagSizeBytes;
    }

    /// <summary>The bytes of the body in the clear, by the header's kind: the credit, and in a frames datagram the first length prefix (a receiver drops shorter frames datagrams unopened).</summary>
    private static int ClearBodyBytes(ReadOnlySpan<byte> datagram) =>
        datagram[KindOffset] == KindCredit ? CreditSizeBytes : CreditSizeBytes + LengthPrefixBytes;

    private static bool TryDecrypt(AesGcm aead, ReadOnlySpan<byte> datagram, ReadOnlySpan<byte> ciphertext, Span<byte> plaintext, int clearBytes)
    {
        try
        {
            aead.Decrypt(datagram[..HeaderSizeBytes], ciphertext, datagram[^TagSizeBytes..], plaintext, datagram.Slice(CreditOffset, clearBytes));
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
