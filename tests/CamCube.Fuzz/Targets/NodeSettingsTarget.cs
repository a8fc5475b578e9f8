using CamCube.Cli;

namespace CamCube.Fuzz.Targets;

/// <summary>
/// The node's configuration: the input's lines are the arguments of `camcube node`, turned into
/// settings as the command does, bound and checked as the host does (<see cref="ArgumentCheck.Node"/>).
/// A message back (the command's, exit 2, or the host's naming the setting, exit 1) is the documented rejection.
/// </summary>
public sealed class NodeSettingsTarget : IFuzzTarget
{
    /// <inheritdoc/>
    public string Name => "node-settings";

    /// <inheritdoc/>
    public string Description => "arguments of `camcube node` as configuration (NodeArguments, CamCubeNodeOptions)";

    /// <inheritdoc/>
    public void Run(byte[] input)
    {
        ArgumentNullException.ThrowIfNull(input);
        _ = ArgumentCheck.Node(TextArguments.Split(input));
    }
}
