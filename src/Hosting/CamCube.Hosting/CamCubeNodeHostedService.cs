using System.Diagnostics.Metrics;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace CamCube.Hosting;

/// <summary>Runs one <see cref="CamCubeNode"/> inside the generic host: started with the host, stopped on SIGTERM, Ctrl-C or a control-socket stop.</summary>
internal sealed class CamCubeNodeHostedService(
    IOptions<CamCubeNodeOptions> options,
    CamCubeNodeBuilder builder,
    IServiceProvider services,
    CamCubeNodeAccessor accessor,
    HealthCheckService health,
    IMeterFactory meterFactory,
    ILoggerFactory loggerFactory,
    IHostApplicationLifetime lifetime) : IHostedService
{
    private CamCubeNode? _node;

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var parts = builder.CreateParts(services);
        parts.Health = ct => health.CheckHealthAsync(ct);
        parts.MeterFactory = meterFactory;
        _node = await CamCubeNode.StartAsync(options.Value, parts, loggerFactory, cancellationToken).ConfigureAwait(false);
        accessor.Set(_node);
        _node.StopRequested += lifetime.StopApplication;
        if (options.Value.ExitWithStdin)
        {
            _ = StopWhenStdinClosesAsync();
        }
    }

    /// <summary>Reads standard input to its end (a supervisor writes nothing) and then stops the node: the supervisor is gone.</summary>
    private async Task StopWhenStdinClosesAsync()
    {
        using var stdin = Console.OpenStandardInput();
        var buffer = new byte[64];
        try
        {
            while (await stdin.ReadAsync(buffer).ConfigureAwait(false) > 0)
            {
            }
        }
        catch (IOException)
        {
            // A broken pipe is the same news as its end.
        }

        loggerFactory.CreateLogger("CamCube.Node").LogWarning("Standard input closed: the supervisor is gone; stopping");
        lifetime.StopApplication();
    }

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        accessor.Set(null);
        if (_node is not null)
        {
            await _node.DisposeAsync().ConfigureAwait(false);
        }
    }
}
