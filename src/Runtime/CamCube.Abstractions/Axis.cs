namespace CamCube;

/// <summary>One of the three axes of the torus.</summary>
public enum Axis
{
    /// <summary>The x axis (size <see cref="TorusShape.X"/>).</summary>
    X = 0,

    /// <summary>The y axis (size <see cref="TorusShape.Y"/>).</summary>
    Y = 1,

    /// <summary>The z axis (size <see cref="TorusShape.Z"/>); a 2D torus has Z = 1.</summary>
    Z = 2,
}
