using System.Diagnostics.CodeAnalysis;
using CamCube.Cli.Cube;
using CamCube.Cli.Nodes;
using CamCube.Hosting;
using Microsoft.Extensions.Configuration;

namespace CamCube.Cli;

/// <summary>
/// Reads a command's arguments as the command does and checks them, without running anything: the
/// entry point for tools that feed the CLI's parsing hostile input (the fuzz driver), so they need no
/// access to the CLI's internals. A rejection comes back as the message the command would print.
/// </summary>
[SuppressMessage("Maintainability", "CA1515:Consider making public types internal", Justification = "The CLI's one public type: the parsing entry point the fuzz driver calls instead of the CLI's internals.")]
public static class ArgumentCheck
{
    /// <summary>Reads the arguments of <c>camcube cube up</c> into the cube's options (CubeCommand.ReadUp).</summary>
    /// <param name="args">The arguments after <c>cube up</c>.</param>
    /// <returns>Null if the command accepts them; else its message (it exits with code 2).</returns>
    public static string? CubeUp(IReadOnlyList<string> args)
    {
        ArgumentNullException.ThrowIfNull(args);
        try
        {
            var (options, reader) = CubeCommand.ReadUp(args);
            _ = reader.Single("--state-dir");
            _ = options with { Instance = reader.Single("--instance") };
            return null;
        }
        catch (UsageException e)
        {
            return e.Message;
        }
    }

    /// <summary>
    /// Reads the arguments of <c>camcube node</c> into settings as the command does (its options,
    /// then settings such as <c>--CamCube:Seed=7</c>; no appsettings.json or environment), then binds
    /// and checks them as the host does (<see cref="CamCubeNodeOptions.Bind"/>, <see cref="CamCubeNodeOptions.Validate"/>).
    /// </summary>
    /// <param name="args">The arguments after <c>node</c>.</param>
    /// <returns>Null if the node would start with them; else the message of the command (exit code 2) or of the host (exit code 1).</returns>
    public static string? Node(IReadOnlyList<string> args)
    {
        ArgumentNullException.ThrowIfNull(args);
        try
        {
            var (options, settings) = NodeArguments.Split(args);
            var reader = new ArgumentReader("node", options, NodeArguments.ValueOptions, NodeArguments.FlagOptions);
            var configuration = new ConfigurationBuilder().AddInMemoryCollection(NodeArguments.Settings(reader)).AddCommandLine(settings.ToArray()).Build();
            CamCubeNodeOptions.Bind(configuration).Validate();
            _ = KeyValueNodeSettings.Read(configuration);
            return null;
        }
        catch (UsageException e)
        {
            return e.Message;
        }
        catch (CamCubeConfigurationException e)
        {
            return e.Message;
        }
    }
}
