namespace CamCube;

/// <summary>Helpers over <see cref="LinkDirection"/>.</summary>
public static class LinkDirections
{
    /// <summary>The number of link directions a server has in a full 3D torus.</summary>
    public const int Count = 6;

    /// <summary>Gets the direction along <paramref name="axis"/> with the sign of <paramref name="sign"/> (+1 or -1).</summary>
    /// <exception cref="ArgumentOutOfRangeException">The sign is not +1 or -1, or the axis is not defined.</exception>
    public static LinkDirection Of(Axis axis, int sign)
    {
        if (sign is not (1 or -1))
        {
            throw new ArgumentOutOfRangeException(nameof(sign), sign, "A direction's sign must be +1 or -1.");
        }

        if ((uint)axis > (uint)Axis.Z)
        {
            throw new ArgumentOutOfRangeException(nameof(axis), axis, "The axis must be X, Y or Z.");
        }

        return (LinkDirection)(((int)axis * 2) + (sign > 0 ? 0 : 1));
    }

    /// <summary>Gets the axis a direction lies on.</summary>
    public static Axis AxisOf(this LinkDirection direction) => (Axis)((int)direction >> 1);

    /// <summary>Gets +1 for a positive direction and -1 for a negative one.</summary>
    public static int SignOf(this LinkDirection direction) => ((int)direction & 1) == 0 ? 1 : -1;

    /// <summary>Gets the direction pointing the other way on the same axis.</summary>
    public static LinkDirection Opposite(this LinkDirection direction) => (LinkDirection)((int)direction ^ 1);

    /// <summary>Gets the short name used in logs and on the command line, such as <c>+x</c>.</summary>
    public static string ToShortName(this LinkDirection direction) => direction switch
    {
        LinkDirection.PlusX => "+x",
        LinkDirection.MinusX => "-x",
        LinkDirection.PlusY => "+y",
        LinkDirection.MinusY => "-y",
        LinkDirection.PlusZ => "+z",
        LinkDirection.MinusZ => "-z",
        _ => throw new ArgumentOutOfRangeException(nameof(direction), direction, "Link directions are 0..5."),
    };
}
