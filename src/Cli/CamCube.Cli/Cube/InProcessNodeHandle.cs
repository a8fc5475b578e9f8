using System.Globalization;
using CamCube.Hosting;
using Microsoft.Extensions.Logging;

namespace CamCube.Cli.Cube;

/// <summary>A node running inside the supervisor's process, with its own UDP socket and event loop thread.</summary>
internal sealed class InProcessNodeHandle(Coordinate self, CubeLayout layout, CubeOptions options, ILoggerFactory loggerFactory) : INodeHandle
{
    private CamCubeNode? _node;

    public Coordinate Self { get; } = self;

    public int? ProcessId => null;

    public int? ControlProcessId => IsRunning ? Environment.ProcessId : null;

    public bool IsRunning => _node is not null;

    public Task LogCompleteAsync => Task.CompletedTask;

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        _node = await CamCubeNode.StartAsync(
            NodeLaunch.Options(Self, layout, options),
            Nodes.ReferenceServices.CreateParts(NodeLaunch.Memcached(Self, options), NodeLaunch.KeyValue(Self, layout, options), Nodes.KeyValueNodeSettings.NodeName(NodeLaunch.Options(Self, layout, options).Coordinate)),
            loggerFactory,
            cancellationToken).ConfigureAwait(false);
        _node.StopRequested += () => _ = StopAsync(TimeSpan.FromSeconds(5));
    }

    public Task KillAsync() => StopAsync(TimeSpan.Zero);

    public async Task StopAsync(TimeSpan grace)
    {
        var node = Interlocked.Exchange(ref _node, null);
        if (node is not null)
        {
            await node.DisposeAsync().ConfigureAwait(false);
        }
    }

    public override string ToString() => string.Create(CultureInfo.InvariantCulture, $"in-process node {Self}");
}
