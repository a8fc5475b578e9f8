using CamCube.Testing.Linearizability;

namespace CamCube.Services.KeyValue.Tests.Simulation;

/// <summary>What a register operation does.</summary>
internal enum RegisterOperation
{
    Read,
    Write,
    CompareAndSwap,
}

/// <summary>A register's value: null before the first write.</summary>
internal sealed record RegisterState(int? Value);

/// <summary>An operation on the register of <paramref name="Key"/>; a compare-and-swap from null is an add (<see cref="WriteCondition.IfAbsent"/>).</summary>
internal sealed record RegisterInput(int Key, RegisterOperation Kind, int? Value = null, int? Expected = null);

/// <summary>An operation's answer: the value read, or whether a compare-and-swap swapped.</summary>
internal sealed record RegisterOutput(int? Value, bool Swapped);

/// <summary>
/// The register the store promises per key. Every value written is unique, so a compare-and-swap on
/// the version read (what the store does) is a compare-and-swap on the value read (what this checks).
/// </summary>
internal sealed class RegisterModel : ISequentialSpecification<RegisterState, RegisterInput, RegisterOutput>
{
    public static RegisterModel Instance { get; } = new();

    public RegisterState Initial { get; } = new(null);

    public bool TryStep(RegisterState state, RegisterInput input, RegisterOutput output, out RegisterState next)
    {
        next = Apply(state, input, out var expected);
        return expected == output;
    }

    public IEnumerable<RegisterState> StepsWithUnknownOutput(RegisterState state, RegisterInput input)
    {
        yield return Apply(state, input, out _);
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
