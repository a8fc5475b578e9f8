using CamCube.Cli;

namespace CamCube.Fuzz.Targets;

/// <summary>The cube options: the input's lines are the arguments of `camcube cube up`, read as the command reads them (<see cref="ArgumentCheck.CubeUp"/>); a message back is the documented rejection (exit 2).</summary>
public sealed class CubeOptionsTarget : IFuzzTarget
{
    /// <inheritdoc/>
    public string Name => "cube-options";

    /// <inheritdoc/>
    public string Description => "arguments of `cube up` (CubeCommand.ReadUp, ArgumentReader, CubeOptions)";

    /// <inheritdoc/>
    public void Run(byte[] input)
    {
        ArgumentNullException.ThrowIfNull(input);
        _ = ArgumentCheck.CubeUp(TextArguments.Split(input));
    }
}
