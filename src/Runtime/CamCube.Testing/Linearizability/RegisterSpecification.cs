namespace CamCube.Testing.Linearizability;

/// <summary>
/// A register holding a number (null before the first write), with read, write and compare-and-swap
/// on the value: the sequential specification of a key in a store's register workload. When every
/// value written is unique, a compare-and-swap on the version read is a compare-and-swap on the value read.
/// Writes answered with a version (<see cref="RegisterOutput.Version"/>) are placed in version order.
/// </summary>
public sealed class RegisterSpecification : ISequentialSpecification<RegisterState, RegisterInput, RegisterOutput>
{
    /// <summary>Gets the one instance (the specification holds no state).</summary>
    public static RegisterSpecification Instance { get; } = new();

    /// <inheritdoc/>
    public RegisterState Initial { get; } = new(null);

    /// <inheritdoc/>
    public bool TryStep(RegisterState state, RegisterInput input, RegisterOutput output, out RegisterState next)
    {
        ArgumentNullException.ThrowIfNull(output);
        next = Apply(state, input, out var expected);
        return expected.Value == output.Value && expected.Swapped == output.Swapped;
    }

    /// <inheritdoc/>
    public IEnumerable<RegisterState> StepsWithUnknownOutput(RegisterState state, RegisterInput input)
    {
        yield return Apply(state, input, out _);
    }

    /// <inheritdoc/>
    public bool LeavesStateUnchanged(RegisterInput input, RegisterOutput output)
    {
        ArgumentNullException.ThrowIfNull(input);
        ArgumentNullException.ThrowIfNull(output);
        return input.Kind == RegisterOperation.Read || (input.Kind == RegisterOperation.CompareAndSwap && !output.Swapped);
    }

    /// <inheritdoc/>
    public long RankOf(RegisterInput input, RegisterOutput output)
    {
        ArgumentNullException.ThrowIfNull(output);
        return LeavesStateUnchanged(input, output) ? 0 : output.Version;
    }

    private static RegisterState Apply(RegisterState state, RegisterInput input, out RegisterOutput output)
    {
        switch (input.Kind)
        {
            case RegisterOperation.Read:
                output = new RegisterOutput(state.Value, Swapped: false);
                return state;
            case RegisterOperation.Write:
                output = new RegisterOutput(null, Swapped: false);
                return new RegisterState(input.Value);
            default:
                var swapped = state.Value == input.Expected;
                output = new RegisterOutput(null, swapped);
                return swapped ? new RegisterState(input.Value) : state;
        }
    }
}
