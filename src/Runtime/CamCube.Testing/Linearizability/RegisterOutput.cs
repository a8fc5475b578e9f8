namespace CamCube.Testing.Linearizability;

/// <summary>A register operation's answer.</summary>
/// <param name="Value">The value a read returned.</param>
/// <param name="Swapped">Whether a compare-and-swap swapped.</param>
public sealed record RegisterOutput(int? Value, bool Swapped);
