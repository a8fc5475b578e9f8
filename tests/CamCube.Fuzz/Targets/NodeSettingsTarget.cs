using CamCube.Cli;
using CamCube.Cli.Nodes;
using Microsoft.Extensions.Configuration;

namespace CamCube.Fuzz.Targets;

/// <summary>
/// The node's configuration reader: the input's lines are the arguments of `camcube node`, read by
/// its ArgumentReader into configuration values as the command does (NodeCommand.ArgumentValues), then by <see cref="NodeSettingsReader"/>;
/// UsageException is the documented rejection (exit 2 with a message).
/// </summary>
public sealed class NodeSettingsTarget : IFuzzTarget
{
    /// <inheritdoc/>
    public string Name => "node-settings";

    /// <inheritdoc/>
    public string Description => "arguments of `camcube node` as configuration (NodeSettingsReader)";

    /// <inheritdoc/>
    public void Run(byte[] input)
    {
        ArgumentNullException.ThrowIfNull(input);
        try
        {
            var reader = new ArgumentReader("node", TextArguments.Split(input), NodeSettingsReader.ValueOptions, NodeSettingsReader.FlagOptions);
            var values = NodeCommand.ArgumentValues(reader);
            _ = NodeSettingsReader.Read(new ConfigurationBuilder().AddInMemoryCollection(values).Build());
        }
        catch (UsageException)
        {
            // The command's message and exit code 2.
        }
    }
}
