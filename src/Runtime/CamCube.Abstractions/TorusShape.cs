using System.Globalization;

namespace CamCube;

/// <summary>
/// The size of a torus, <c>X x Y x Z</c>, with each axis from 1 to <see cref="AxisSizeMax"/>.
/// A 2D torus has <c>Z = 1</c>. Every axis wraps around.
/// </summary>
/// <remarks>
/// On an axis of size 1 a server has no link on that axis. On an axis of size 2 the positive and
/// the negative neighbour are the same server; the shape then keeps only the positive link, so
/// <see cref="GetLinks"/> and <see cref="GetNeighbors"/> never list one server twice.
/// </remarks>
public readonly struct TorusShape : IEquatable<TorusShape>
{
    /// <summary>The largest size of one axis.</summary>
    public const int AxisSizeMax = 65_536;

    /// <summary>Creates a shape, checking every axis.</summary>
    /// <exception cref="ArgumentOutOfRangeException">An axis is smaller than 1 or larger than <see cref="AxisSizeMax"/>.</exception>
    public TorusShape(int x, int y, int z)
    {
        CheckAxis(x, nameof(x));
        CheckAxis(y, nameof(y));
        CheckAxis(z, nameof(z));
        X = x;
        Y = y;
        Z = z;
    }

    /// <summary>Gets the size of the x axis.</summary>
    public int X { get; }

    /// <summary>Gets the size of the y axis.</summary>
    public int Y { get; }

    /// <summary>Gets the size of the z axis (1 for a 2D torus).</summary>
    public int Z { get; }

    /// <summary>Gets the number of servers, <c>X * Y * Z</c>.</summary>
    public long ServerCount => (long)X * Y * Z;

    /// <summary>Gets whether this is a valid shape (false only for <c>default</c>).</summary>
    public bool IsValid => X > 0;

    /// <summary>Gets the size of <paramref name="axis"/>.</summary>
    public int this[Axis axis] => axis switch
    {
        Axis.X => X,
        Axis.Y => Y,
        Axis.Z => Z,
        _ => throw new ArgumentOutOfRangeException(nameof(axis), axis, "The axis must be X, Y or Z."),
    };

    /// <summary>Gets whether <paramref name="coordinate"/> lies inside this shape.</summary>
    public bool Contains(Coordinate coordinate) =>
        (uint)coordinate.X < (uint)X && (uint)coordinate.Y < (uint)Y && (uint)coordinate.Z < (uint)Z;

    /// <summary>Throws unless <paramref name="coordinate"/> lies inside this shape.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The coordinate is outside the shape.</exception>
    public void EnsureContains(Coordinate coordinate, string? parameterName = null)
    {
        if (!Contains(coordinate))
        {
            throw new ArgumentOutOfRangeException(
                parameterName ?? nameof(coordinate),
                coordinate,
                $"Coordinate {coordinate} is outside the torus {this}: each of x, y, z must be from 0 to {X - 1}, {Y - 1}, {Z - 1}.");
        }
    }

    /// <summary>Gets the wrapped distance between <paramref name="a"/> and <paramref name="b"/> on one axis.</summary>
    public int AxisDistance(Coordinate a, Coordinate b, Axis axis) => Wrapped(a[axis] - b[axis], this[axis]);

    /// <summary>
    /// Gets the wrapped rectilinear (Manhattan) distance: the number of hops on a shortest path.
    /// </summary>
    public int Distance(Coordinate a, Coordinate b) =>
        Wrapped(a.X - b.X, X) + Wrapped(a.Y - b.Y, Y) + Wrapped(a.Z - b.Z, Z);

    /// <summary>Gets the wrapped rectilinear distance between the homes of two key coordinates (symbiotic-routing 7: <c>dist</c>).</summary>
    public int Distance(KeyCoordinate a, KeyCoordinate b) => Distance(a.Home, b.Home);

    /// <summary>Gets the wrapped distance between the homes of two key coordinates on one axis (symbiotic-routing 7: <c>distAxis</c>).</summary>
    public int AxisDistance(KeyCoordinate a, KeyCoordinate b, Axis axis) => AxisDistance(a.Home, b.Home, axis);

    /// <summary>
    /// Gets the key coordinate one step from <paramref name="key"/> along <paramref name="axis"/> in direction
    /// <paramref name="sign"/>, keeping its <c>w</c> (symbiotic-routing 7: <c>getCoordNeigh</c>), so that the traffic
    /// of a failed server spreads over its neighbours as its keys do.
    /// </summary>
    public KeyCoordinate NeighborKey(KeyCoordinate key, Axis axis, int sign) => KeyCoordinate.At(Neighbor(key.Home, axis, sign), key.W);

    /// <summary>Gets the coordinate one step from <paramref name="coordinate"/> in <paramref name="direction"/>, wrapping.</summary>
    public Coordinate Neighbor(Coordinate coordinate, LinkDirection direction) =>
        Neighbor(coordinate, direction.AxisOf(), direction.SignOf());

    /// <summary>Gets the coordinate one step from <paramref name="coordinate"/> along <paramref name="axis"/> in direction <paramref name="sign"/> (+1 or -1), wrapping.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The sign is not +1 or -1.</exception>
    public Coordinate Neighbor(Coordinate coordinate, Axis axis, int sign)
    {
        if (sign is not (1 or -1))
        {
            throw new ArgumentOutOfRangeException(nameof(sign), sign, "A direction's sign must be +1 or -1.");
        }

        return axis switch
        {
            Axis.X => coordinate with { X = Step(coordinate.X, sign, X) },
            Axis.Y => coordinate with { Y = Step(coordinate.Y, sign, Y) },
            Axis.Z => coordinate with { Z = Step(coordinate.Z, sign, Z) },
            _ => throw new ArgumentOutOfRangeException(nameof(axis), axis, "The axis must be X, Y or Z."),
        };
    }

    /// <summary>
    /// Gets whether a server of this shape has a link in <paramref name="direction"/>: false on an
    /// axis of size 1, and false for the negative direction on an axis of size 2.
    /// </summary>
    public bool HasLink(LinkDirection direction)
    {
        var size = this[direction.AxisOf()];
        return size >= 3 || (size == 2 && direction.SignOf() > 0);
    }

    /// <summary>
    /// Gets the link on which a frame sent on <paramref name="direction"/> arrives at the neighbour:
    /// the opposite direction, except on an axis of size 2, where both ends use their one positive link.
    /// </summary>
    public LinkDirection PeerLink(LinkDirection direction) =>
        this[direction.AxisOf()] == 2 ? direction : direction.Opposite();

    /// <summary>Gets the number of links each server has (6 in a torus with every axis at least 3).</summary>
    public int LinkCount
    {
        get
        {
            var count = 0;
            for (var d = 0; d < LinkDirections.Count; d++)
            {
                if (HasLink((LinkDirection)d))
                {
                    count++;
                }
            }

            return count;
        }
    }

    /// <summary>Writes the directions in which a server has a link, in direction order, and returns how many.</summary>
    public int GetLinks(Span<LinkDirection> destination)
    {
        var count = 0;
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            if (HasLink((LinkDirection)d))
            {
                destination[count++] = (LinkDirection)d;
            }
        }

        return count;
    }

    /// <summary>
    /// Writes the distinct one-hop neighbours of <paramref name="coordinate"/> in link-direction order
    /// and returns how many (up to 6; fewer on axes of size 1 or 2, see the type's remarks).
    /// </summary>
    public int GetNeighbors(Coordinate coordinate, Span<Coordinate> destination)
    {
        var count = 0;
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            if (HasLink((LinkDirection)d))
            {
                destination[count++] = Neighbor(coordinate, (LinkDirection)d);
            }
        }

        return count;
    }

    /// <summary>Gets the dense index of a coordinate, <c>x + X * (y + Y * z)</c>, from 0 to <see cref="ServerCount"/> - 1.</summary>
    public long IndexOf(Coordinate coordinate) => coordinate.X + ((long)X * (coordinate.Y + ((long)Y * coordinate.Z)));

    /// <summary>Gets the coordinate with dense index <paramref name="index"/>; the inverse of <see cref="IndexOf"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The index is negative or not less than <see cref="ServerCount"/>.</exception>
    public Coordinate CoordinateAt(long index)
    {
        if ((ulong)index >= (ulong)ServerCount)
        {
            throw new ArgumentOutOfRangeException(nameof(index), index, $"A server index of {this} is from 0 to {ServerCount - 1}.");
        }

        var x = (int)(index % X);
        var rest = index / X;
        return new Coordinate(x, (int)(rest % Y), (int)(rest / Y));
    }

    /// <summary>Formats as <c>XxYxZ</c>, such as <c>3x3x3</c>.</summary>
    public override string ToString() => string.Create(CultureInfo.InvariantCulture, $"{X}x{Y}x{Z}");

    /// <summary>Parses <c>XxYxZ</c> (such as <c>3x3x3</c>) or <c>XxY</c> for a 2D torus.</summary>
    /// <exception cref="FormatException">The text does not have that form.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An axis is outside 1..<see cref="AxisSizeMax"/>.</exception>
    public static TorusShape Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var span = text.AsSpan().Trim();
        Span<Range> parts = stackalloc Range[4];
        var count = span.Split(parts, 'x');
        if (count is < 2 or > 3)
        {
            throw new FormatException($"'{text}' is not a torus shape: expected XxYxZ such as 3x3x3, or XxY for a 2D torus.");
        }

        Span<int> sizes = [1, 1, 1];
        for (var i = 0; i < count; i++)
        {
            if (!int.TryParse(span[parts[i]], NumberStyles.None, CultureInfo.InvariantCulture, out sizes[i]))
            {
                throw new FormatException($"'{text}' is not a torus shape: '{span[parts[i]].ToString()}' is not a whole number (expected XxYxZ such as 3x3x3).");
            }
        }

        return new TorusShape(sizes[0], sizes[1], sizes[2]);
    }

    /// <inheritdoc/>
    public bool Equals(TorusShape other) => X == other.X && Y == other.Y && Z == other.Z;

    /// <inheritdoc/>
    public override bool Equals(object? obj) => obj is TorusShape other && Equals(other);

    /// <inheritdoc/>
    public override int GetHashCode() => HashCode.Combine(X, Y, Z);

    /// <summary>Compares two shapes for equality.</summary>
    public static bool operator ==(TorusShape left, TorusShape right) => left.Equals(right);

    /// <summary>Compares two shapes for inequality.</summary>
    public static bool operator !=(TorusShape left, TorusShape right) => !left.Equals(right);

    private static int Wrapped(int delta, int size)
    {
        var d = Math.Abs(delta);
        return Math.Min(d, size - d);
    }

    private static int Step(int value, int sign, int size)
    {
        var next = value + sign;
        return next == size ? 0 : next < 0 ? size - 1 : next;
    }

    private static void CheckAxis(int size, string axis)
    {
        if (size is < 1 or > AxisSizeMax)
        {
            throw new ArgumentOutOfRangeException(axis, size, $"Torus axis {axis.ToUpperInvariant()} must be from 1 to {AxisSizeMax}; it was {size}.");
        }
    }
}
