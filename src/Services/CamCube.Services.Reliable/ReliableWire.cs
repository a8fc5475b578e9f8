using System.Buffers.Binary;

namespace CamCube.Services.Reliable;

/// <summary>
/// Offsets of the reliable transport's fields in a packet's payload; every multi-byte field is
/// big-endian (docs/wire-format.md, "Reliable transport"). Every packet starts with the same
/// 16-byte prefix: tag, kind, flags, the copy byte of an exchange (zero in other kinds), the 8-byte
/// flow id and a 4-byte sequence number.
/// </summary>
internal static class ReliableWire
{
    /// <summary>The bytes every reliable packet starts with.</summary>
    public const int PrefixBytes = 16;

    /// <summary>The bytes of a data packet before its fragment.</summary>
    public const int DataHeaderBytes = 36;

    /// <summary>The most SACK blocks an acknowledgement carries.</summary>
    public const int SackBlocksMax = 4;

    /// <summary>The bytes of an acknowledgement with <see cref="SackBlocksMax"/> blocks.</summary>
    public const int AckBytesMax = AckBlocksOffset + (SackBlocksMax * 8);

    /// <summary>The bytes of a NotRoot reply: the prefix and the root's coordinate.</summary>
    public const int NotRootBytes = PrefixBytes + 6;

    /// <summary>Flag bit: the flow is addressed to a key (its key coordinate is in the data header).</summary>
    public const byte KeyFlowFlag = 1;

    /// <summary>Flag bit of a refusal: the message is longer than the receiver's <see cref="ReliableOptions.MessageBytesMax"/> (else its reassembly memory is full).</summary>
    public const byte TooLargeFlag = 1;

    /// <summary>
    /// Flag bit of a request: the requester knows no life of the server, and the sequence field holds
    /// the microseconds since the request's first copy left instead (a request older than the
    /// server's life may have been taken by an earlier life).
    /// </summary>
    public const byte AgeFlag = 2;

    public const int KindOffset = 1;
    public const int FlagsOffset = 2;

    /// <summary>
    /// Offset of the copy byte. In a request: which copy of it this is (1 for the first, at most 255).
    /// In a reply or busy notice: the copy it answers; for the handler's reply, the copy the handler
    /// took. The requester times the round trip from that copy (an exact Karn's rule, as TCP's timestamps).
    /// </summary>
    public const int CopyOffset = 3;

    /// <summary>The highest copy number a request carries; later copies carry it too.</summary>
    public const int CopyMax = byte.MaxValue;
    public const int FlowIdOffset = 4;
    public const int SequenceOffset = 12;

    // Data.
    public const int FirstUnackedOffset = 16;
    public const int MessageLengthOffset = 20;
    public const int FragmentOffsetOffset = 24;
    public const int KeyOffset = 28;

    // Ack.
    public const int CumulativeOffset = 16;
    public const int SackCountOffset = 20;
    public const int AckBlocksOffset = 24;

    // NotRoot.
    public const int RootOffset = 16;

    // Request of an exchange: the exchange id is in the flow id's place, the attempt in the sequence's.
    public const int OldestOpenOffset = 16;
    public const int RequestKeyOffset = 24;

    /// <summary>The bytes of an exchange's request before its body.</summary>
    public const int RequestHeaderBytes = 32;

    /// <summary>The bytes of an exchange's reply (or busy notice) before its body: the prefix alone.</summary>
    public const int ReplyHeaderBytes = PrefixBytes;

    /// <summary>Writes the prefix common to every kind.</summary>
    public static void WritePrefix(Span<byte> payload, byte tag, ReliablePacketKind kind, byte flags, ulong flowId, uint sequence)
    {
        payload[0] = tag;
        payload[KindOffset] = (byte)kind;
        payload[FlagsOffset] = flags;
        payload[3] = 0;
        BinaryPrimitives.WriteUInt64BigEndian(payload[FlowIdOffset..], flowId);
        BinaryPrimitives.WriteUInt32BigEndian(payload[SequenceOffset..], sequence);
    }

    /// <summary>Reads the flow id.</summary>
    public static ulong FlowId(ReadOnlySpan<byte> payload) => BinaryPrimitives.ReadUInt64BigEndian(payload[FlowIdOffset..]);

    /// <summary>Reads the sequence number.</summary>
    public static uint Sequence(ReadOnlySpan<byte> payload) => BinaryPrimitives.ReadUInt32BigEndian(payload[SequenceOffset..]);

    /// <summary>Reads a 64-bit field.</summary>
    public static ulong UInt64(ReadOnlySpan<byte> payload, int offset) => BinaryPrimitives.ReadUInt64BigEndian(payload[offset..]);

    /// <summary>Writes a 64-bit field.</summary>
    public static void UInt64(Span<byte> payload, int offset, ulong value) => BinaryPrimitives.WriteUInt64BigEndian(payload[offset..], value);

    /// <summary>Reads a 32-bit field.</summary>
    public static uint UInt32(ReadOnlySpan<byte> payload, int offset) => BinaryPrimitives.ReadUInt32BigEndian(payload[offset..]);

    /// <summary>Writes a 32-bit field.</summary>
    public static void UInt32(Span<byte> payload, int offset, uint value) => BinaryPrimitives.WriteUInt32BigEndian(payload[offset..], value);

    /// <summary>Writes a coordinate as three 16-bit fields.</summary>
    public static void WriteCoordinate(Span<byte> payload, int offset, Coordinate value)
    {
        BinaryPrimitives.WriteUInt16BigEndian(payload[offset..], (ushort)value.X);
        BinaryPrimitives.WriteUInt16BigEndian(payload[(offset + 2)..], (ushort)value.Y);
        BinaryPrimitives.WriteUInt16BigEndian(payload[(offset + 4)..], (ushort)value.Z);
    }

    /// <summary>Reads a coordinate written by <see cref="WriteCoordinate"/>.</summary>
    public static Coordinate ReadCoordinate(ReadOnlySpan<byte> payload, int offset) => new(
        BinaryPrimitives.ReadUInt16BigEndian(payload[offset..]),
        BinaryPrimitives.ReadUInt16BigEndian(payload[(offset + 2)..]),
        BinaryPrimitives.ReadUInt16BigEndian(payload[(offset + 4)..]));
}
