namespace CamCube.Packets;

/// <summary>
/// Offsets and sizes of the packet header, wire format version 1 (docs/wire-format.md).
/// Every multi-byte field is big-endian.
/// </summary>
public static class PacketHeader
{
    /// <summary>The wire format version this build writes and accepts.</summary>
    public const byte Version = 1;

    /// <summary>The size of the header in bytes; the payload starts here.</summary>
    public const int SizeBytes = 22;

    /// <summary>Offset of the 2-byte service id.</summary>
    public const int ServiceIdOffset = 0;

    /// <summary>Offset of the 1-byte format version.</summary>
    public const int VersionOffset = 2;

    /// <summary>Offset of the 1-byte <see cref="DestinationKind"/>.</summary>
    public const int KindOffset = 3;

    /// <summary>Offset of the 1-byte hop limit: hops the packet may still take.</summary>
    public const int HopLimitOffset = 4;

    /// <summary>Offset of the 1-byte hop count: hops the packet has taken.</summary>
    public const int HopCountOffset = 5;

    /// <summary>Offset of the 2-byte payload length.</summary>
    public const int PayloadLengthOffset = 6;

    /// <summary>Offset of the source server, three 2-byte coordinates.</summary>
    public const int SourceOffset = 8;

    /// <summary>Offset of the destination: x, y, z and w, 2 bytes each (w is 0 for a server).</summary>
    public const int DestinationOffset = 14;
}
