using System.Buffers.Binary;
using CamCube.Services.Reliable;

namespace CamCube.Services.Cache;

/// <summary>
/// The layout of a cache packet's payload, version 2 (CacheWireFormat.md). Every field is
/// big-endian at a fixed offset; the key follows the fixed part and a chunk of the value follows
/// the key, so a value larger than one packet travels as several fragments that each carry the key.
/// </summary>
internal static class CacheMessage
{
    public const byte Version = 2;
    public const int VersionOffset = 0;
    public const int TypeOffset = 1;
    public const int StageOffset = 2;
    public const int TieBreakOffset = 3;
    public const int RequestIdOffset = 4;
    public const int RequesterOffset = 8;
    public const int SecondaryOffset = 14;
    public const int PrimaryOffset = 20;
    public const int CodeOffset = 28;
    public const int KeyLengthOffset = 29;
    public const int FlagsOffset = 30;
    public const int ExpirationOffset = 34;
    public const int CasOffset = 38;
    public const int ValueLengthOffset = 46;
    public const int ChunkOffsetOffset = 50;
    public const int HopsOffset = 54;
    public const int LeaseStartOffset = 56;
    public const int FixedBytes = 64;

    /// <summary>Marks "no server" in a coordinate field.</summary>
    public const ushort NoServer = 0xFFFF;

    public static CacheMessageType TypeOf(ReadOnlySpan<byte> p) => (CacheMessageType)p[TypeOffset];

    public static RouteStage StageOf(ReadOnlySpan<byte> p) => (RouteStage)p[StageOffset];

    public static uint RequestIdOf(ReadOnlySpan<byte> p) => BinaryPrimitives.ReadUInt32BigEndian(p[RequestIdOffset..]);

    public static byte CodeOf(ReadOnlySpan<byte> p) => p[CodeOffset];

    public static uint FlagsOf(ReadOnlySpan<byte> p) => BinaryPrimitives.ReadUInt32BigEndian(p[FlagsOffset..]);

    public static int ExpirationOf(ReadOnlySpan<byte> p) => BinaryPrimitives.ReadInt32BigEndian(p[ExpirationOffset..]);

    public static ulong CasOf(ReadOnlySpan<byte> p) => BinaryPrimitives.ReadUInt64BigEndian(p[CasOffset..]);

    public static int ValueLengthOf(ReadOnlySpan<byte> p) => BinaryPrimitives.ReadInt32BigEndian(p[ValueLengthOffset..]);

    public static int ChunkOffsetOf(ReadOnlySpan<byte> p) => BinaryPrimitives.ReadInt32BigEndian(p[ChunkOffsetOffset..]);

    public static ushort HopsOf(ReadOnlySpan<byte> p) => BinaryPrimitives.ReadUInt16BigEndian(p[HopsOffset..]);

    /// <summary>Gets the secondary's clock reading when it sent its miss on to the primary: the start of the copy's lease, echoed by the root.</summary>
    public static long LeaseStartOf(ReadOnlySpan<byte> p) => BinaryPrimitives.ReadInt64BigEndian(p[LeaseStartOffset..]);

    public static ReadOnlySpan<byte> KeyOf(ReadOnlySpan<byte> p) => p.Slice(FixedBytes, p[KeyLengthOffset]);

    public static ReadOnlySpan<byte> ChunkOf(ReadOnlySpan<byte> p) => p[(FixedBytes + p[KeyLengthOffset])..];

    public static Coordinate RequesterOf(ReadOnlySpan<byte> p) => ReadCoordinate(p[RequesterOffset..]);

    public static Coordinate? SecondaryOf(ReadOnlySpan<byte> p) =>
        BinaryPrimitives.ReadUInt16BigEndian(p[SecondaryOffset..]) == NoServer ? null : ReadCoordinate(p[SecondaryOffset..]);

    public static KeyCoordinate PrimaryOf(ReadOnlySpan<byte> p) => KeyCoordinate.Read(p[PrimaryOffset..]);

    /// <summary>Adds the fragment in payload <paramref name="p"/> to <paramref name="assembler"/>, named by its requester, request id and type; returns the whole value once every byte arrived, else null.</summary>
    public static byte[]? Assemble(FragmentAssembler<(Coordinate Requester, uint RequestId, CacheMessageType Type)> assembler, ReadOnlySpan<byte> p, long now) =>
        assembler.Add((RequesterOf(p), RequestIdOf(p), TypeOf(p)), ValueLengthOf(p), ChunkOffsetOf(p), ChunkOf(p), now);

    /// <summary>Checks the lengths of a received payload: the version, a known type, and a key and chunk inside the payload.</summary>
    public static bool IsWellFormed(ReadOnlySpan<byte> p)
    {
        if (p.Length < FixedBytes || p[VersionOffset] != Version || p[TypeOffset] is 0 or > (byte)CacheMessageType.InvalidateAck)
        {
            return false;
        }

        var chunk = p.Length - FixedBytes - p[KeyLengthOffset];
        var valueLength = ValueLengthOf(p);
        var offset = ChunkOffsetOf(p);
        return chunk >= 0 && valueLength >= 0 && offset >= 0 && (long)offset + chunk <= valueLength;
    }

    /// <summary>Writes the fixed part and the key; the caller writes the chunk after <see cref="FixedBytes"/> + key length.</summary>
    public static void Write(
        Span<byte> p,
        CacheMessageType type,
        RouteStage stage,
        byte tieBreak,
        uint requestId,
        Coordinate requester,
        KeyCoordinate primary,
        byte code,
        ReadOnlySpan<byte> key)
    {
        p[VersionOffset] = Version;
        p[TypeOffset] = (byte)type;
        p[StageOffset] = (byte)stage;
        p[TieBreakOffset] = tieBreak;
        BinaryPrimitives.WriteUInt32BigEndian(p[RequestIdOffset..], requestId);
        WriteCoordinate(p[RequesterOffset..], requester);
        SetSecondary(p, null);
        primary.Write(p[PrimaryOffset..]);
        p[CodeOffset] = code;
        p[KeyLengthOffset] = (byte)key.Length;
        SetItem(p, 0, 0, 0);
        SetValue(p, 0, 0);
        BinaryPrimitives.WriteUInt16BigEndian(p[HopsOffset..], 0);
        SetLeaseStart(p, 0);
        key.CopyTo(p[FixedBytes..]);
    }

    public static void SetStage(Span<byte> p, RouteStage stage) => p[StageOffset] = (byte)stage;

    public static void SetType(Span<byte> p, CacheMessageType type) => p[TypeOffset] = (byte)type;

    public static void SetCode(Span<byte> p, byte code) => p[CodeOffset] = code;

    public static void SetLeaseStart(Span<byte> p, long timestamp) => BinaryPrimitives.WriteInt64BigEndian(p[LeaseStartOffset..], timestamp);

    public static void SetHops(Span<byte> p, ushort hops) => BinaryPrimitives.WriteUInt16BigEndian(p[HopsOffset..], hops);

    public static void SetItem(Span<byte> p, uint flags, int expirationSeconds, ulong cas)
    {
        BinaryPrimitives.WriteUInt32BigEndian(p[FlagsOffset..], flags);
        BinaryPrimitives.WriteInt32BigEndian(p[ExpirationOffset..], expirationSeconds);
        BinaryPrimitives.WriteUInt64BigEndian(p[CasOffset..], cas);
    }

    public static void SetValue(Span<byte> p, int valueLength, int chunkOffset)
    {
        BinaryPrimitives.WriteInt32BigEndian(p[ValueLengthOffset..], valueLength);
        BinaryPrimitives.WriteInt32BigEndian(p[ChunkOffsetOffset..], chunkOffset);
    }

    public static void SetSecondary(Span<byte> p, Coordinate? server)
    {
        if (server is { } s)
        {
            WriteCoordinate(p[SecondaryOffset..], s);
        }
        else
        {
            BinaryPrimitives.WriteUInt16BigEndian(p[SecondaryOffset..], NoServer);
            BinaryPrimitives.WriteUInt32BigEndian(p[(SecondaryOffset + 2)..], uint.MaxValue);
        }
    }

    private static Coordinate ReadCoordinate(ReadOnlySpan<byte> p) => new(
        BinaryPrimitives.ReadUInt16BigEndian(p),
        BinaryPrimitives.ReadUInt16BigEndian(p[2..]),
        BinaryPrimitives.ReadUInt16BigEndian(p[4..]));

    private static void WriteCoordinate(Span<byte> p, Coordinate c)
    {
        BinaryPrimitives.WriteUInt16BigEndian(p, (ushort)c.X);
        BinaryPrimitives.WriteUInt16BigEndian(p[2..], (ushort)c.Y);
        BinaryPrimitives.WriteUInt16BigEndian(p[4..], (ushort)c.Z);
    }
}
