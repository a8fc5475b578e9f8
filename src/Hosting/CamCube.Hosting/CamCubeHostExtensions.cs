using CamCube.Hosting.Health;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace CamCube.Hosting;

/// <summary>Runs a host that holds a CamCube node the way a node program should end: with one line and an exit code.</summary>
public static class CamCubeHostExtensions
{
    /// <summary>Exit code of a node that ran and stopped.</summary>
    public const int ExitOk = 0;

    /// <summary>Exit code of a node that could not start (bad configuration, a port in use, no key) or of an unhealthy <c>health</c>.</summary>
    public const int ExitFailure = 1;

    /// <summary>
    /// Runs the host until it stops, or, when <paramref name="args"/> start with <c>health</c>,
    /// asks the node configured in this host (its <see cref="CamCubeNodeOptions.ControlSocket"/>)
    /// for its health instead, for a container probe. A node that cannot start writes one line
    /// naming the setting or the cause (<c>NAME: CamCube:BasePort 65530: ...</c>) instead of a stack trace.
    /// </summary>
    /// <param name="host">A host built with <see cref="CamCubeServiceCollectionExtensions.AddCamCubeNode"/>.</param>
    /// <param name="args">The program's arguments; only a first <c>health</c> is read.</param>
    /// <param name="name">The program's name at the start of an error line; null: the entry assembly's name.</param>
    /// <param name="error">Where the error line goes; null: standard error.</param>
    /// <returns><see cref="ExitOk"/>, or <see cref="ExitFailure"/>.</returns>
    public static async Task<int> RunCamCubeNodeAsync(this IHost host, IReadOnlyList<string>? args = null, string? name = null, TextWriter? error = null)
    {
        ArgumentNullException.ThrowIfNull(host);
        error ??= Console.Error;
        name ??= System.Reflection.Assembly.GetEntryAssembly()?.GetName().Name ?? "node";
        try
        {
            if (args is ["health", ..])
            {
                var socket = host.Services.GetRequiredService<IOptions<CamCubeNodeOptions>>().Value.ControlSocket
                    ?? throw new CamCubeConfigurationException($"{CamCubeNodeOptions.SectionName}:ControlSocket is not set: health asks the node on its control socket.");
                return await CamCubeHealthProbe.AskAsync(socket, Console.Out).ConfigureAwait(false);
            }

            await host.RunAsync().ConfigureAwait(false);
            return ExitOk;
        }
        catch (OptionsValidationException ex)
        {
            await error.WriteLineAsync($"{name}: {ex.Failures.First()}").ConfigureAwait(false);
            return ExitFailure;
        }
        catch (Exception ex) when (ex is InvalidOperationException or IOException or UnauthorizedAccessException or System.Net.Sockets.SocketException or FormatException or InvalidDataException or ArgumentException)
        {
            await error.WriteLineAsync($"{name}: {FirstLine(ex.Message)}").ConfigureAwait(false);
            return ExitFailure;
        }
    }

    /// <summary>The first line of a message: the rest (a parameter name, a stack) is for developers.</summary>
    internal static string FirstLine(string message) => message.Split('\n')[0].Trim();
}
