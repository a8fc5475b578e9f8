namespace CamCube.Testing.Linearizability;

/// <summary>A register's value: null before the first write.</summary>
/// <param name="Value">The value held.</param>
public sealed record RegisterState(int? Value);
