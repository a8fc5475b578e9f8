using CamCube.Hosting.Control;
using CamCube.Packets;
using CamCube.Runtime;
using CamCube.Runtime.Loops;
using CamCube.Services;
using CamCube.Services.Diagnostics;
using CamCube.Transport;
using CamCube.Transport.Faults;
using CamCube.Transport.Udp;
using Microsoft.Extensions.Logging;

namespace CamCube.Hosting;

/// <summary>
/// One CamCube server over UDP: its event loop thread, its transport (behind a fault decorator for
/// drills), its runtime with the diagnostics services (ping, key probe) and the services it was
/// given, its front-ends and its control socket. <see cref="CamCubeServiceCollectionExtensions.AddCamCubeNode"/>
/// runs one inside a host; <see cref="StartAsync"/> starts one without a host.
/// </summary>
public sealed class CamCubeNode : IAsyncDisposable
{
    private readonly ILogger _logger;
    private readonly IEventLoop _loop;
    private readonly UdpLinkTransport _transport;
    private readonly FaultInjectingTransport _faults;
    private readonly long _startTimestamp;
    private readonly List<IAsyncDisposable> _frontEnds = [];
    private readonly Dictionary<string, string> _listeners = new(StringComparer.Ordinal);
    private ControlServer? _control;
    private bool _stopped;

    private CamCubeNode(CamCubeNodeOptions options, NodePlacement placement, CamCubeNodeParts parts, ILoggerFactory loggerFactory, IEventLoop loop, UdpLinkTransport transport, FaultInjectingTransport faults, Node node)
    {
        Options = options;
        Placement = placement;
        Parts = parts;
        LoggerFactory = loggerFactory;
        _faults = faults;
        _logger = loggerFactory.CreateLogger("CamCube.Node");
        _loop = loop;
        _transport = transport;
        Node = node;
        _startTimestamp = TimeProvider.System.GetTimestamp();
    }

    /// <summary>Gets the options the node was started with.</summary>
    public CamCubeNodeOptions Options { get; }

    /// <summary>Gets the torus the node is part of.</summary>
    public TorusShape Shape => Placement.Shape;

    /// <summary>Gets this server's coordinate.</summary>
    public Coordinate Self => Placement.Self;

    /// <summary>Gets the runtime. Touch it only on <see cref="Loop"/> (through <c>Loop.InvokeAsync</c>).</summary>
    public Node Node { get; }

    /// <summary>Gets the event loop every upcall of the node runs on.</summary>
    public IEventLoop Loop => _loop;

    /// <summary>Gets the UDP transport under the fault decorator.</summary>
    public UdpLinkTransport Transport => _transport;

    /// <summary>Gets the fault decorator between the runtime and the UDP transport (no faults unless told), for drills.</summary>
    public FaultInjectingTransport Faults => _faults;

    /// <summary>Gets how long the node has run.</summary>
    public TimeSpan Uptime => TimeProvider.System.GetElapsedTime(_startTimestamp);

    /// <summary>Gets the endpoints the node's front-ends listen on, by name (such as <c>memcached</c>), as the status command reports them.</summary>
    public IReadOnlyDictionary<string, string> Listeners => _listeners;

    /// <summary>Gets the logger factory the node logs through.</summary>
    public ILoggerFactory LoggerFactory { get; }

    internal NodePlacement Placement { get; }

    internal CamCubeNodeParts Parts { get; }

    /// <summary>Raised when a control client asks the node to stop.</summary>
    public event Action? StopRequested;

    /// <summary>Records an endpoint a front-end listens on, for the status command (call it from the front-end's <see cref="FrontEndFactory"/>).</summary>
    /// <param name="name">The front-end's name, such as <c>memcached</c>.</param>
    /// <param name="endPoint">Where it listens.</param>
    public void AddListener(string name, string endPoint) => _listeners[name] = endPoint;

    /// <summary>Creates and starts a node: binds its UDP socket, starts the runtime with its services, then its front-ends, then its control socket.</summary>
    /// <param name="options">Where the node is, its key and its timing.</param>
    /// <param name="parts">Its services, front-ends and health report.</param>
    /// <param name="loggerFactory">Where the node logs.</param>
    /// <param name="cancellationToken">Cancels the start.</param>
    /// <returns>The running node; dispose it to stop it.</returns>
    /// <exception cref="CamCubeConfigurationException">A setting is refused; the message names it.</exception>
    /// <exception cref="InvalidOperationException">The key is missing, the port is in use, or a front-end cannot listen; the message says which.</exception>
    public static async Task<CamCubeNode> StartAsync(CamCubeNodeOptions options, CamCubeNodeParts parts, ILoggerFactory loggerFactory, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(parts);
        ArgumentNullException.ThrowIfNull(loggerFactory);
        var placement = NodePlacement.Resolve(options);
        var key = LoadKey(options, placement);
        var logger = loggerFactory.CreateLogger("CamCube.Node");
        var loop = CreateLoop(options, placement, logger);
        var pool = new PacketPool();
        UdpLinkTransport? transport = null;
        try
        {
            transport = new UdpLinkTransport(placement.Shape, placement.Self, loop, pool, new UdpTransportOptions
            {
                Addressing = placement.Addressing,
                ClusterKey = key,
                AllowInsecure = options.Insecure && key is null,
                RateLimitBitsPerSecond = options.RateLimitMegabitsPerSecond * 1_000_000L,
                SegmentationOffload = options.UdpSegmentationOffload,
            });
            var nodeOptions = new NodeOptions
            {
                HeartbeatInterval = options.HeartbeatInterval,
                HeartbeatTimeout = options.EffectiveHeartbeatTimeout,
                Seed = options.Seed,
                PostedItemsMax = options.PostedItemsMax,
                DropNoticesPerSecondMax = options.DropNoticesPerSecondMax,
                MeterFactory = parts.MeterFactory,
            };

            // Faults (loss, delay, duplication, reordering, cut links) for drills on the real cube.
            var faults = new FaultInjectingTransport(transport, loop, new Random(Seeds.For(options.Seed, placement.Self, stream: 1)), pool);
            var node = new Node(faults, loop, pool, nodeOptions, loggerFactory);
            node.Register(new PingService());
            node.Register(new KeyProbeService());
            foreach (var service in parts.Services)
            {
                node.Register(service);
            }

            node.Start();

            // Starting runs on the loop; a bind failure (port in use) surfaces here with its message.
            var error = await loop.InvokeAsync(() => node.StartError).WaitAsync(cancellationToken).ConfigureAwait(false);
            if (error is not null)
            {
                throw new InvalidOperationException($"node {placement.Self}: {error.Message}", error);
            }

            var cube = new CamCubeNode(options, placement, parts, loggerFactory, loop, transport, faults, node);
            await cube.StartFrontEndsAndControlAsync(cancellationToken).ConfigureAwait(false);
            logger.LogInformation("Node {Self} of {Shape} listening on {Endpoint}", placement.Self, placement.Shape, placement.Addressing.GetBindEndPoint(placement.Shape, placement.Self));
            return cube;
        }
        catch
        {
            transport?.Dispose();
            ((IDisposable)loop).Dispose();
            throw;
        }
    }

    /// <summary>Gets a service the node runs, or null. Call it on <see cref="Loop"/> or before traffic reaches the service.</summary>
    /// <typeparam name="T">The service's type.</typeparam>
    /// <returns>The service, or null when the node runs none of that type.</returns>
    public T? GetService<T>()
        where T : class, IService => Node.GetService<T>();

    private async Task StartFrontEndsAndControlAsync(CancellationToken cancellationToken)
    {
        try
        {
            foreach (var start in Parts.FrontEnds)
            {
                _frontEnds.Add(await start(this, cancellationToken).ConfigureAwait(false));
            }
        }
        catch
        {
            await DisposeAsync().ConfigureAwait(false);
            throw;
        }

        if (Options.ControlSocket is { } path)
        {
            _control = new ControlServer(path, (line, ct) => ControlCommands.HandleAsync(this, line, ct), LoggerFactory.CreateLogger("CamCube.Control"));
            _control.StopRequested += () => StopRequested?.Invoke();
            _control.Start();
        }
    }

    private static ClusterKey? LoadKey(CamCubeNodeOptions options, NodePlacement placement)
    {
        if (options.KeyFile is not null)
        {
            return ClusterKey.FromFile(options.KeyFile);
        }

        var key = ClusterKey.FromEnvironment();
        if (key is null && !options.Insecure)
        {
            throw new InvalidOperationException($"node {placement.Self}: no cluster key. {ClusterKey.HowToProvide}");
        }

        return key;
    }

    private static IEventLoop CreateLoop(CamCubeNodeOptions options, NodePlacement placement, ILogger logger)
    {
        var self = placement.Self;
        var name = $"camcube-node-{self.X}-{self.Y}-{self.Z}";
        Action<Exception> onUnhandled = ex => logger.LogError(ex, "A work item failed on the event loop");
        return options.EffectiveLoop == NodeLoopKind.Threaded
            ? new ThreadedEventLoop(name, TimeProvider.System, onUnhandled, options.LoopIdleSpin)
            : new UdpEventLoop(name, onUnhandled) { SpinAfterSend = options.UdpSpinAfterSend };
    }

    /// <summary>Stops the node: front-ends, control socket, runtime, transport and loop.</summary>
    /// <returns>A task that completes when the node has stopped.</returns>
    public async ValueTask DisposeAsync()
    {
        if (_stopped)
        {
            return;
        }

        _stopped = true;
        for (var i = _frontEnds.Count - 1; i >= 0; i--)
        {
            await _frontEnds[i].DisposeAsync().ConfigureAwait(false);
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
        _logger.LogInformation("Node {Self} stopped", Self);
    }
}
