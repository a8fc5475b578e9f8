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

    /// <summary>Makes a key coordinate at a server with the given <paramref name="w"/>.</summary>
    public static KeyCoordinate At(Coordinate home, ushort w) => new(home.X, home.Y, home.Z, w);

    /// <summary>Formats as <c>(x,y,z,w)</c>.</summary>
    public override string ToString() => string.Create(CultureInfo.InvariantCulture, $"({X},{Y},{Z},{W})");
}
