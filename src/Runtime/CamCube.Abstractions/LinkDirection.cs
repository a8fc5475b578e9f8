namespace CamCube;

/// <summary>
/// The six directions a server's links point in: one positive and one negative per axis.
/// The numeric value is the link's index on a node (0..5) and is part of the wire contract.
/// </summary>
public enum LinkDirection
{
    /// <summary>Towards x + 1 (wrapping).</summary>
    PlusX = 0,

    /// <summary>Towards x - 1 (wrapping).</summary>
    MinusX = 1,

    /// <summary>Towards y + 1 (wrapping).</summary>
    PlusY = 2,

    /// <summary>Towards y - 1 (wrapping).</summary>
    MinusY = 3,

    /// <summary>Towards z + 1 (wrapping).</summary>
    PlusZ = 4,

    /// <summary>Towards z - 1 (wrapping).</summary>
    MinusZ = 5,
}
