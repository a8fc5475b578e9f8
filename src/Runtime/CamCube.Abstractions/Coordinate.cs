using System.Globalization;

namespace CamCube;

/// <summary>
/// A server's address: its position <c>(x, y, z)</c> in the torus. It never changes
/// (camcubeos 3.1). Whether it lies inside a particular shape is checked by <see cref="TorusShape"/>.
/// </summary>
/// <param name="X">The position on the x axis, from 0.</param>
/// <param name="Y">The position on the y axis, from 0.</param>
/// <param name="Z">The position on the z axis, from 0.</param>
public readonly record struct Coordinate(int X, int Y, int Z)
{
    /// <summary>Gets the component on <paramref name="axis"/>.</summary>
    public int this[Axis axis] => axis switch
    {
        Axis.X => X,
        Axis.Y => Y,
        Axis.Z => Z,
        _ => throw new ArgumentOutOfRangeException(nameof(axis), axis, "The axis must be X, Y or Z."),
    };

    /// <summary>Formats as <c>(x,y,z)</c>.</summary>
    public override string ToString() => string.Create(CultureInfo.InvariantCulture, $"({X},{Y},{Z})");

    /// <summary>
    /// Parses <c>x,y,z</c>, optionally in parentheses, such as <c>1,2,0</c> or <c>(1,2,0)</c>.
    /// </summary>
    /// <exception cref="FormatException">The text is not three non-negative integers separated by commas.</exception>
    public static Coordinate Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        if (TryParse(text, out var coordinate))
        {
            return coordinate;
        }

        throw new FormatException($"'{text}' is not a coordinate: expected three non-negative integers such as 1,2,0.");
    }

    /// <summary>Tries to parse <c>x,y,z</c>, optionally in parentheses.</summary>
    public static bool TryParse(string? text, out Coordinate coordinate)
    {
        coordinate = default;
        if (string.IsNullOrWhiteSpace(text))
        {
            return false;
        }

        var span = text.AsSpan().Trim();
        if (span.Length >= 2 && span[0] == '(' && span[^1] == ')')
        {
            span = span[1..^1];
        }

        Span<Range> parts = stackalloc Range[4];
        if (span.Split(parts, ',') != 3)
        {
            return false;
        }

        const NumberStyles Style = NumberStyles.AllowLeadingWhite | NumberStyles.AllowTrailingWhite;
        if (!int.TryParse(span[parts[0]], Style, CultureInfo.InvariantCulture, out var x) || x < 0 ||
            !int.TryParse(span[parts[1]], Style, CultureInfo.InvariantCulture, out var y) || y < 0 ||
            !int.TryParse(span[parts[2]], Style, CultureInfo.InvariantCulture, out var z) || z < 0)
        {
            return false;
        }

        coordinate = new Coordinate(x, y, z);
        return true;
    }
}
