using CamCube.Cli;
using CamCube.Cli.Cube;

namespace CamCube.Fuzz.Targets;

/// <summary>The cube options: the input's lines are the arguments of `camcube cube up`, read as the command reads them (CubeCommand.ReadUp); UsageException is the documented rejection (exit 2 with a message).</summary>
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
        try
        {
            var (options, reader) = CubeCommand.ReadUp(TextArguments.Split(input));
            _ = reader.Single("--state-dir");
            _ = options with { Instance = reader.Single("--instance") };
        }
        catch (UsageException)
        {
            // The command's message and exit code 2.
        }
    }
}
