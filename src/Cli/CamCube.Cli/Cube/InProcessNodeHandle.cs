using System.Globalization;
using CamCube.Cli.Nodes;
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

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var settings = new NodeSettings
        {
            Shape = options.Shape,
            Self = Self,
            Addressing = Transport.Udp.UdpPeerAddressing.FromBasePort(options.BasePort),
            KeyFile = layout.KeyFile,
            ControlSocket = layout.NodeSocket(Self),
            HeartbeatInterval = TimeSpan.FromMilliseconds(options.HeartbeatMilliseconds),
            HeartbeatTimeout = TimeSpan.FromMilliseconds(options.TimeoutMilliseconds),
            MemcachedEndPoint = options.MemcachedBasePort is { } port
                ? new System.Net.IPEndPoint(System.Net.IPAddress.Loopback, port + (int)options.Shape.IndexOf(Self))
                : null,
        };
        _node = await CamCubeNode.StartAsync(settings, loggerFactory, cancellationToken).ConfigureAwait(false);
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
