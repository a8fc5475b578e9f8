namespace CamCube.Testing.Linearizability;

/// <summary>A register's value: null before the first write.</summary>
/// <param name="Value">The value held.</param>
/// <param name="Version">The version of the newest write placed whose version is known (0: none): every write placed after it must have a higher one.</param>
public sealed record RegisterState(int? Value, long Version = 0);
