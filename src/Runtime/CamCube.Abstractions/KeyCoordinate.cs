using System.Buffers.Binary;
using System.Globalization;

namespace CamCube;

/// <summary>
/// A point in key space, <c>(x, y, z, w)</c> (camcubeos 3.2): <c>(x, y, z)</c> is the home
/// server of the keys that map here and <c>w</c> picks which of the 48 fail-over sequences
/// of <see cref="KeySpace.GetServersForKey(KeyCoordinate, IReachabilityView, Span{Coordinate})"/> they follow.
/// </summary>
/// <param name="X">The home server's x.</param>
/// <param name="Y">The home server's y.</param>
/// <param name="Z">The home server's z.</param>
/// <param name="W">The 16 low routing bits; <c>W mod 48</c> picks the facet and axis order.</param>
public readonly record struct KeyCoordinate(int X, int Y, int Z, ushort W)
{
    /// <summary>Gets the home server, <c>(x, y, z)</c>.</summary>
    public Coordinate Home => new(X, Y, Z);

    /// <summary>The bytes a key coordinate takes on the wire: x, y, z and w as big-endian 16-bit fields.</summary>
    public const int WireSizeBytes = 8;

    /// <summary>Makes a key coordinate at a server with the given <paramref name="w"/>.</summary>
    public static KeyCoordinate At(Coordinate home, ushort w) => new(home.X, home.Y, home.Z, w);

    /// <summary>
    /// Reads a key coordinate in its wire form (as in the packet header's destination) from the
    /// first <see cref="WireSizeBytes"/> bytes of <paramref name="source"/>: one 64-bit read.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="source"/> is shorter than <see cref="WireSizeBytes"/>.</exception>
    public static KeyCoordinate Read(ReadOnlySpan<byte> source)
    {
        var fields = BinaryPrimitives.ReadUInt64BigEndian(source);
        return new KeyCoordinate((ushort)(fields >> 48), (ushort)(fields >> 32), (ushort)(fields >> 16), (ushort)fields);
    }

    /// <summary>Writes this key coordinate in its wire form to the first <see cref="WireSizeBytes"/> bytes of <paramref name="destination"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="destination"/> is shorter than <see cref="WireSizeBytes"/>.</exception>
    public void Write(Span<byte> destination) =>
        BinaryPrimitives.WriteUInt64BigEndian(destination, ((ulong)(ushort)X << 48) | ((ulong)(ushort)Y << 32) | ((ulong)(ushort)Z << 16) | W);

    /// <summary>Formats as <c>(x,y,z,w)</c>.</summary>
    public override string ToString() => string.Create(CultureInfo.InvariantCulture, $"({X},{Y},{Z},{W})");
}
