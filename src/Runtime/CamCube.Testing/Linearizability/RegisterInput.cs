namespace CamCube.Testing.Linearizability;

/// <summary>A register operation and its arguments.</summary>
/// <param name="Kind">What the operation does.</param>
/// <param name="Value">The value written, for a write or a compare-and-swap.</param>
/// <param name="Expected">The value a compare-and-swap expects (null: none, an add).</param>
/// <param name="Key">Which register, for <see cref="LinearizabilityChecker.CheckEachKey{TKey, TState, TInput, TOutput}"/>.</param>
public sealed record RegisterInput(RegisterOperation Kind, int? Value = null, int? Expected = null, int Key = 0);
