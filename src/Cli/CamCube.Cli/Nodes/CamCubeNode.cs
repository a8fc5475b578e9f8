using CamCube.Packets;
using CamCube.Runtime;
using CamCube.Runtime.Loops;
using CamCube.Services.Cache;
using CamCube.Services.Cache.FrontEnd;
using CamCube.Services.Diagnostics;
using CamCube.Transport;
using CamCube.Transport.Faults;
using CamCube.Transport.Udp;
using Microsoft.Extensions.Logging;

namespace CamCube.Cli.Nodes;

/// <summary>
/// One CamCube server over UDP: its event loop thread, its transport, its runtime and the
/// reference services (ping, key probe, link benchmark). `camcube node` runs one per process;
/// `camcube cube up --in-process` runs all of them in one.
/// </summary>
internal sealed class CamCubeNode : IAsyncDisposable
{
    private readonly ILogger _logger;
    private readonly IEventLoop _loop;
    private readonly UdpLinkTransport _transport;
    private readonly FaultInjectingTransport _faults;
    private readonly long _startTimestamp;
    private ControlServer? _control;
    private MemcachedFrontEnd? _memcached;
    private bool _stopped;

    private CamCubeNode(NodeSettings settings, ILoggerFactory loggerFactory, IEventLoop loop, UdpLinkTransport transport, FaultInjectingTransport faults, Node node)
    {
        _faults = faults;
        Settings = settings;
        _logger = loggerFactory.CreateLogger("CamCube.Node");
        _loop = loop;
        _transport = transport;
        Node = node;
        _startTimestamp = TimeProvider.System.GetTimestamp();
    }

    public NodeSettings Settings { get; }

    public Node Node { get; }

    public IEventLoop Loop => _loop;

    public UdpLinkTransport Transport => _transport;

    /// <summary>Gets the fault decorator between the runtime and the UDP transport (no faults unless told), for drills.</summary>
    public FaultInjectingTransport Faults => _faults;

    public TimeSpan Uptime => TimeProvider.System.GetElapsedTime(_startTimestamp);

    /// <summary>Raised when a control client asks the node to stop.</summary>
    public event Action? StopRequested;

    /// <summary>Creates and starts a node: binds its UDP socket and control socket and starts the runtime.</summary>
    /// <exception cref="InvalidOperationException">The key is missing, the port is in use, or the settings are refused; the message says which.</exception>
    public static async Task<CamCubeNode> StartAsync(NodeSettings settings, ILoggerFactory loggerFactory, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(settings);
        var key = settings.LoadKey();
        var logger = loggerFactory.CreateLogger("CamCube.Node");
        var loop = CreateLoop(settings, logger);
        var pool = new PacketPool();
        UdpLinkTransport? transport = null;
        try
        {
            transport = new UdpLinkTransport(settings.Shape, settings.Self, loop, pool, new UdpTransportOptions
            {
                Addressing = settings.Addressing,
                ClusterKey = key,
                AllowInsecure = settings.Insecure && key is null,
                RateLimitBitsPerSecond = settings.RateLimitBitsPerSecond,
                SegmentationOffload = settings.UdpSegmentationOffload,
            });
            var options = new NodeOptions
            {
                HeartbeatInterval = settings.HeartbeatInterval,
                HeartbeatTimeout = settings.HeartbeatTimeout,
                Seed = settings.Seed,
            };
            // Faults (loss, delay, duplication, reordering, cut links) for drills on the real cube.
            var faults = new FaultInjectingTransport(transport, loop, new Random(Seeds.For(settings.Seed, settings.Self, stream: 1)), pool) { Faults = settings.Faults };
            var node = new Node(faults, loop, pool, options, loggerFactory);
            node.Register(new PingService());
            node.Register(new KeyProbeService());
            node.Register(new LinkBenchmarkService());
            var cache = new CacheService();
            node.Register(cache);
            node.Start();

            // Starting runs on the loop; a bind failure (port in use) surfaces here with its message.
            var error = await loop.InvokeAsync(() => node.StartError).WaitAsync(cancellationToken).ConfigureAwait(false);
            if (error is not null)
            {
                throw new InvalidOperationException($"node {settings.Self}: {error.Message}", error);
            }

            var cube = new CamCubeNode(settings, loggerFactory, loop, transport, faults, node);
            if (settings.MemcachedEndPoint is { } endPoint)
            {
                cube._memcached = new MemcachedFrontEnd(cache, new MemcachedFrontEndOptions { EndPoint = endPoint }, loggerFactory.CreateLogger("CamCube.Memcached"));
                try
                {
                    await cube._memcached.StartAsync(cancellationToken).ConfigureAwait(false);
                }
                catch (System.Net.Sockets.SocketException ex)
                {
                    await cube.DisposeAsync().ConfigureAwait(false);
                    throw new InvalidOperationException($"node {settings.Self}: the memcached front-end cannot listen on {endPoint}: {ex.Message} (is another memcached or cube running? use --memcached-port)", ex);
                }
            }

            if (settings.ControlSocket is not null)
            {
                cube._control = new ControlServer(settings.ControlSocket, (line, ct) => ControlResponses.HandleAsync(cube, line, ct), loggerFactory.CreateLogger("CamCube.Control"));
                cube._control.StopRequested += () => cube.StopRequested?.Invoke();
                cube._control.Start();
            }

            logger.LogInformation("Node {Self} of {Shape} listening on {Endpoint}", settings.Self, settings.Shape, settings.Addressing.GetBindEndPoint(settings.Shape, settings.Self));
            return cube;
        }
        catch
        {
            transport?.Dispose();
            ((IDisposable)loop).Dispose();
            throw;
        }
    }

    private static IEventLoop CreateLoop(NodeSettings settings, ILogger logger)
    {
        var name = $"camcube-node-{settings.Self.X}-{settings.Self.Y}-{settings.Self.Z}";
        Action<Exception> onUnhandled = ex => logger.LogError(ex, "A work item failed on the event loop");
        return settings.Loop == NodeLoopKind.Threaded
            ? new ThreadedEventLoop(name, TimeProvider.System, onUnhandled, settings.LoopIdleSpin)
            : new UdpEventLoop(name, onUnhandled) { SpinAfterSend = settings.UdpSpinAfterSend };
    }

    /// <summary>Stops the node: runtime, transport, control socket and loop.</summary>
    public async ValueTask DisposeAsync()
    {
        if (_stopped)
        {
            return;
        }

        _stopped = true;
        if (_memcached is not null)
        {
            await _memcached.DisposeAsync().ConfigureAwait(false);
        }

        if (_control is not null)
        {
            await _control.DisposeAsync().ConfigureAwait(false);
        }

        await _loop.InvokeAsync(() =>
        {
            Node.Stop();
            return true;
        }).ConfigureAwait(false);
        await _loop.InvokeAsync(() => true).ConfigureAwait(false);
        ((IDisposable)_loop).Dispose();
        _logger.LogInformation("Node {Self} stopped", Settings.Self);
    }
}
