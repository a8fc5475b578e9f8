namespace CamCube.Testing.Linearizability;

/// <summary>What a register operation does.</summary>
public enum RegisterOperation
{
    /// <summary>Reads the value.</summary>
    Read,

    /// <summary>Writes a value.</summary>
    Write,

    /// <summary>Writes a value if the register holds the expected one (null: holds none, an add).</summary>
    CompareAndSwap,
}
