using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace CamCube.Cli.Nodes;

/// <summary>Runs one <see cref="CamCubeNode"/> inside the generic host: started with the host, stopped on SIGTERM, Ctrl-C or a control-socket stop.</summary>
internal sealed class NodeHostedService(NodeSettings settings, ILoggerFactory loggerFactory, IHostApplicationLifetime lifetime) : IHostedService
{
    private CamCubeNode? _node;

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        _node = await CamCubeNode.StartAsync(settings, loggerFactory, cancellationToken).ConfigureAwait(false);
        _node.StopRequested += lifetime.StopApplication;
    }

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        if (_node is not null)
        {
            await _node.DisposeAsync().ConfigureAwait(false);
        }
    }
}
