using CamCube.Cli;
using CamCube.Cli.Nodes;
using CamCube.Hosting;
using Microsoft.Extensions.Configuration;

namespace CamCube.Fuzz.Targets;

/// <summary>
/// The node's configuration: the input's lines are the arguments of `camcube node`, turned into
/// settings as the command does (<see cref="NodeArguments"/>), bound and checked as the host does
/// (<see cref="CamCubeNodeOptions.Bind"/>, <see cref="CamCubeNodeOptions.Validate"/>).
/// UsageException (exit 2) and CamCubeConfigurationException (exit 1) are the documented rejections.
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
        try
        {
            var (options, settings) = NodeArguments.Split(TextArguments.Split(input));
            var reader = new ArgumentReader("node", options, NodeArguments.ValueOptions, NodeArguments.FlagOptions);
            var configuration = new ConfigurationBuilder().AddInMemoryCollection(NodeArguments.Settings(reader)).AddCommandLine(settings.ToArray()).Build();
            CamCubeNodeOptions.Bind(configuration).Validate();
        }
        catch (UsageException)
        {
            // The command's message and exit code 2.
        }
        catch (CamCubeConfigurationException)
        {
            // The host's message naming the setting, and exit code 1.
        }
    }
}
