using CamCube.Testing.Linearizability;

namespace CamCube.Runtime.Tests.Linearizability;

/// <summary>A register holding a number (null before the first write), with read, write and compare-and-swap.</summary>
internal sealed class RegisterSpecification : ISequentialSpecification<RegisterState, RegisterInput, RegisterOutput>
{
    public static RegisterSpecification Instance { get; } = new();

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
