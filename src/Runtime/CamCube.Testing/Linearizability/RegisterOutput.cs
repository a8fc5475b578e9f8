namespace CamCube.Testing.Linearizability;

/// <summary>A register operation's answer.</summary>
/// <param name="Value">The value a read returned.</param>
/// <param name="Swapped">Whether a compare-and-swap swapped.</param>
/// <param name="Version">
/// For a write or a compare-and-swap that took effect, the version the store gave it (0: none given).
/// A store whose versions increase per key is held to it: its writes are placed in version order
/// (<see cref="RegisterSpecification.RankOf"/>). Not part of the answer's comparison with the specification's.
/// </param>
public sealed record RegisterOutput(int? Value, bool Swapped, long Version = 0);
