using CamCube.Packets;
using CamCube.Runtime.Posting;
using CamCube.Runtime.Routing;
using CamCube.Services;
using CamCube.Transport;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace CamCube.Runtime;

/// <summary>
/// One CamCube server's runtime (camcubeos 3.3): it owns the node's links through an
/// <see cref="ILinkTransport"/>, runs the core services (liveness, link-state routing) and the
/// registered services on one event loop, delivers received packets to services by service id,
/// routes packets to keys and servers, and polls services fairly whenever a link has room.
/// </summary>
/// <remarks>
/// Every method that changes the node must run on its event loop; <see cref="Start"/> and
/// <see cref="Stop"/> post themselves there. Shapes of up to 2^24 servers are supported.
/// </remarks>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Design", "CA1001", Justification = "The metrics are disposed when the node stops, on its loop; a node is not disposed.")]
public sealed partial class Node : ITransportSink, ILoopWork
{
    /// <summary>The largest shape, in servers, a node supports (its link-state arrays are per server).</summary>
    public const long ServerCountMax = 1L << 24;

    private readonly ILinkTransport _transport;

    /// <summary>The transport's room-on-request capability, if it has one: then the node asks for room only while something waits for a link.</summary>
    private readonly ILinkRoomRequests? _roomRequests;
    private readonly IEventLoop _loop;
    private readonly ILoggerFactory _loggerFactory;
    private readonly ILogger _logger;
    private readonly Dictionary<ushort, ServiceSlot> _slotsById = [];
    private readonly List<ServiceSlot> _controlSlots = [];
    private readonly List<ServiceSlot> _dataSlots = [];
    private readonly List<Packet> _scratchPackets = [];
    private readonly DropLog _dropLog;
    private readonly LivenessService _liveness;
    private readonly LinkStateService _linkState;
    private readonly DropNoticeService _dropNotices;
    private readonly DropNoticeBudget _dropNoticeBudget;
    private readonly ServiceSlot _dropNoticeSlot;
    private readonly long[] _virtualTime = new long[LinkDirections.Count];
    private readonly byte _existingLinks;
    private NodeMetrics? _metrics;
    private byte _upLinks;
    private int _pollingDataSlots;
    private ServiceSlot? _lastReceivedSlot;
    private bool _running;
    private bool _stopped;

    /// <summary>Creates a node; it does nothing until <see cref="Start"/>.</summary>
    /// <param name="transport">The node's links. Its shape and coordinate are the node's.</param>
    /// <param name="loop">The node's event loop (shared by many nodes in memory and in the simulator).</param>
    /// <param name="pool">The pool packets come from.</param>
    /// <param name="options">Settings; defaults if null.</param>
    /// <param name="loggerFactory">Where logs go; nowhere if null.</param>
    /// <exception cref="ArgumentException">The shape has more than <see cref="ServerCountMax"/> servers, or <see cref="NodeOptions.RoutingComputations"/> is for another shape.</exception>
    public Node(ILinkTransport transport, IEventLoop loop, PacketPool pool, NodeOptions? options = null, ILoggerFactory? loggerFactory = null)
    {
        _transport = transport ?? throw new ArgumentNullException(nameof(transport));
        _roomRequests = transport as ILinkRoomRequests;
        _roomRequests?.EnableRoomOnRequest();
        _loop = loop ?? throw new ArgumentNullException(nameof(loop));
        Pool = pool ?? throw new ArgumentNullException(nameof(pool));
        Options = options ?? new NodeOptions();
        Options.Validate();
        Shape = transport.Shape;
        Self = transport.Self;
        Shape.EnsureContains(Self, nameof(transport));
        if (Shape.ServerCount > ServerCountMax)
        {
            throw new ArgumentException($"A node supports shapes of up to {ServerCountMax} servers; {Shape} has {Shape.ServerCount}.", nameof(transport));
        }

        _loggerFactory = loggerFactory ?? NullLoggerFactory.Instance;
        _logger = _loggerFactory.CreateLogger("CamCube.Runtime.Node");
        KeySpace = KeySpace.For(Shape);
        Random = new Random(Seeds.For(Options.Seed, Self));
        HopLimit = Options.HopLimit != 0 ? Options.HopLimit : DefaultHopLimitFor(Shape);
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            if (Shape.HasLink((LinkDirection)d))
            {
                _existingLinks |= (byte)(1 << d);
            }
        }

        _dropLog = new DropLog(_logger, TimeProvider);
        if (Options.RoutingComputations is { } computations && computations.Shape != Shape)
        {
            throw new ArgumentException($"The routing computations are shared for the torus {computations.Shape}, not this node's {Shape}.", nameof(options));
        }

        _linkCounts = Counters.LinkCounts;
        Routes = new RoutingTable(Shape, Self, _existingLinks, Options.RoutingComputations);
        _liveness = new LivenessService(this);
        _linkState = new LinkStateService(this);
        AddSlot(_liveness, weight: 1, isControl: true);
        AddSlot(_linkState, weight: 1, isControl: true);
        _dropNotices = new DropNoticeService(this);
        _dropNoticeBudget = new DropNoticeBudget(TimeProvider, Options.DropNoticesPerSecondMax);
        _dropNoticeSlot = AddSlot(_dropNotices, weight: 1, isControl: true);
    }

    /// <summary>Gets the node's coordinate.</summary>
    public Coordinate Self { get; }

    /// <summary>Gets the torus shape.</summary>
    public TorusShape Shape { get; }

    /// <summary>Gets the shape's keyspace.</summary>
    public KeySpace KeySpace { get; }

    /// <summary>Gets the node's settings.</summary>
    public NodeOptions Options { get; }

    /// <summary>Gets the pool the node's packets come from.</summary>
    public PacketPool Pool { get; }

    /// <summary>Gets the node's clock.</summary>
    public TimeProvider TimeProvider => _loop.TimeProvider;

    /// <summary>Gets the node's seeded random source.</summary>
    public Random Random { get; }

    /// <summary>Gets the hop limit new routed packets get.</summary>
    public byte HopLimit { get; }

    /// <summary>Gets the node's counters.</summary>
    public NodeCounters Counters { get; } = new();

    /// <summary>Gets which servers the node can reach, as its link-state database says.</summary>
    public IReachabilityView Reachability => Routes.Reachability;

    /// <summary>Gets why the node failed to start (its transport refused), or null.</summary>
    public Exception? StartError { get; private set; }

    /// <summary>Gets whether the node has started and not stopped.</summary>
    public bool IsRunning => _running;

    internal RoutingTable Routes { get; }

    internal LinkStateService LinkState => _linkState;

    internal byte UpLinks => _upLinks;

    internal byte ExistingLinks => _existingLinks;

    /// <summary>Gets whether <paramref name="link"/> can take a frame now: the node runs, the link is up and the transport has room on it.</summary>
    internal bool HasLinkRoom(LinkDirection link) => _running && IsLinkUp(link) && _transport.HasRoom(link);

    /// <summary>Gets whether <paramref name="link"/> exists and is up (heartbeats are arriving).</summary>
    public bool IsLinkUp(LinkDirection link) => (_upLinks & (1 << (int)link)) != 0;

    /// <summary>Starts the node on its loop: the transport, heartbeats and link-state routing.</summary>
    public void Start() => _loop.Post(this, (int)WorkCode.Start, 0, null);

    /// <summary>Stops the node on its loop, as a crash would: timers stop, queued packets are released, the transport stops.</summary>
    public void Stop() => _loop.Post(this, (int)WorkCode.Stop, 0, null);

    /// <summary>
    /// Registers <paramref name="service"/> with a weight for fair sharing of links (default 1: every
    /// service gets an equal share). Call on the node's loop, or before <see cref="Start"/>.
    /// </summary>
    /// <exception cref="ArgumentException">Another service has the same id, or the id is reserved.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The weight is outside 1..1,000.</exception>
    public void Register(IService service, int weight = 1) => Register(service, weight, Options.SendQueuePacketsMax);

    /// <summary>
    /// Registers <paramref name="service"/> with a weight and its own queue capacity: at most
    /// <paramref name="sendQueuePacketsMax"/> packets wait in its send queue here (a route call past it
    /// drops the packet and returns <see cref="RouteStatus.DroppedQueueFull"/>), and in each of its
    /// extended-routing queues unless <see cref="RoutingQueueOptions.PacketsMax"/> says otherwise.
    /// </summary>
    /// <exception cref="ArgumentException">Another service has the same id, or the id is reserved.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The weight is outside 1..1,000, or the capacity is below 1.</exception>
    public void Register(IService service, int weight, int sendQueuePacketsMax)
    {
        ArgumentNullException.ThrowIfNull(service);
        if (sendQueuePacketsMax < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(sendQueuePacketsMax), sendQueuePacketsMax, "A send queue must hold at least one packet.");
        }

        if (service.ServiceId is 0 or >= ServiceIds.RuntimeFirst)
        {
            throw new ArgumentException($"Service id 0x{service.ServiceId:X4} of {service.Name} is reserved; use 1 to 0x{ServiceIds.RuntimeFirst - 1:X4}.", nameof(service));
        }

        if (weight is < 1 or > 1_000)
        {
            throw new ArgumentOutOfRangeException(nameof(weight), weight, "A service's weight is from 1 to 1,000.");
        }

        AddSlot(service, weight, isControl: false, sendQueuePacketsMax);
    }

    /// <summary>Deregisters the service with <paramref name="serviceId"/>; its queued packets are released. Returns false if none is registered.</summary>
    public bool Deregister(ushort serviceId)
    {
        if (serviceId >= ServiceIds.RuntimeFirst || !_slotsById.Remove(serviceId, out var slot))
        {
            return false;
        }

        _dataSlots.Remove(slot);
        _pollingDataSlots -= slot.Polls ? 1 : 0;
        UpdateAtOnceSlot();
        slot.Registered = false;
        slot.Mailbox.Close();
        ReleaseQueued(slot, DropReason.Shutdown);
        slot.Service.OnDeregistered();
        return true;
    }

    /// <summary>Gets the registered service of type <typeparamref name="T"/>, or null.</summary>
    public T? GetService<T>()
        where T : class, IService
    {
        foreach (var slot in _dataSlots)
        {
            if (slot.Service is T service)
            {
                return service;
            }
        }

        return null;
    }

    /// <summary>Gets the service registered with <paramref name="serviceId"/>, or null.</summary>
    public IService? GetService(ushort serviceId) =>
        _slotsById.TryGetValue(serviceId, out var slot) ? slot.Service : null;

    /// <summary>Gets the counters of the service with <paramref name="serviceId"/>, or null.</summary>
    public ServiceCounters? GetServiceCounters(ushort serviceId) =>
        _slotsById.TryGetValue(serviceId, out var slot) ? slot.Counters : null;

    /// <summary>Gets how many packets the service with <paramref name="serviceId"/> has queued here (its send queue and its extended-routing queues).</summary>
    public int GetQueuedPacketCount(ushort serviceId) =>
        _slotsById.TryGetValue(serviceId, out var slot) ? slot.Queue.Count + (slot.Router?.QueuedCount ?? 0) : 0;

    internal IEnumerable<(string Name, ServiceCounters Counters)> ServiceCounterSnapshot()
    {
        foreach (var slot in _slotsById.Values.ToArray())
        {
            yield return (slot.Service.Name, slot.Counters);
        }
    }

    /// <inheritdoc/>
    void ILoopWork.Execute(int code, int argument, Packet? packet)
    {
        switch ((WorkCode)code)
        {
            case WorkCode.Start:
                StartOnLoop();
                break;
            case WorkCode.Stop:
                StopOnLoop();
                break;
            case WorkCode.LocalDeliver:
                if (_running && _slotsById.TryGetValue((ushort)argument, out var slot))
                {
                    // A multi-target send's header for this server: the service gets a whole packet of its own.
                    Deliver(slot, packet!.Gather(Pool));
                }
                else
                {
                    packet?.Release();
                }

                break;
            case WorkCode.Recompute:
                if (_running)
                {
                    RecomputeRoutes();
                }

                break;
            case WorkCode.SendDropNotice:
                if (_running)
                {
                    Originate(_dropNoticeSlot, packet!, DestinationKind.Server, packet!.Destination);
                }
                else
                {
                    packet?.Release();
                }

                break;
            case WorkCode.HeartbeatTick:
                if (_running)
                {
                    _liveness.Tick();
                }

                break;
            default:
                packet?.Release();
                break;
        }
    }

    internal void Post(WorkCode code, int argument = 0, Packet? packet = null) => _loop.Post(this, (int)code, argument, packet);

    internal void PostWork(ILoopWork work) => _loop.Post(work, 0, 0, null);

    internal ILogger CreateLogger(string category) => _loggerFactory.CreateLogger(category);

    private void StartOnLoop()
    {
        if (_running || _stopped)
        {
            return;
        }

        try
        {
            _transport.Start(this);
        }
#pragma warning disable CA1031 // The failure is kept for the host to report, and the node stays stopped.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            _stopped = true;
            StartError = ex;
            Log.NodeStartFailed(_logger, ex, Self);
            return;
        }

        _running = true;
        if (Options.PublishMetrics)
        {
            _metrics = new NodeMetrics(this);
        }

        _liveness.Start();
        _linkState.Originate();
        Log.NodeStarted(_logger, Self, Shape);
    }

    private void StopOnLoop()
    {
        if (!_running)
        {
            _stopped = true;
            return;
        }

        _running = false;
        _stopped = true;
        _liveness.Stop();
        foreach (var slot in _slotsById.Values.ToArray())
        {
            slot.Mailbox.Close();
            ReleaseQueued(slot, DropReason.Shutdown);
            slot.Service.OnDeregistered();
        }

        _transport.Stop();
        _metrics?.Dispose();
        Log.NodeStopped(_logger, Self);
    }

    private ServiceSlot AddSlot(IService service, int weight, bool isControl, int sendQueuePacketsMax = 0)
    {
        if (_slotsById.TryGetValue(service.ServiceId, out var existing))
        {
            throw new ArgumentException($"Service id 0x{service.ServiceId:X4} ({service.Name}) is already registered on node {Self} by {existing.Service.Name}.", nameof(service));
        }

        var slot = new ServiceSlot(service, weight, isControl, sendQueuePacketsMax > 0 ? sendQueuePacketsMax : Options.SendQueuePacketsMax);
        slot.Context = new ServiceContext(this, slot);
        slot.Mailbox = new ServiceMailbox(this, slot, Options.PostedItemsMax);
        _slotsById.Add(service.ServiceId, slot);
        (isControl ? _controlSlots : _dataSlots).Add(slot);
        _pollingDataSlots += slot.Polls ? 1 : 0;
        UpdateAtOnceSlot();

        // A newcomer starts at the links' current virtual time, so it gets no credit for the past.
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            slot.Pass[d] = _virtualTime[d];
        }

        service.OnRegistered(slot.Context);
        return slot;
    }

    private void ReleaseQueued(ServiceSlot slot, DropReason reason)
    {
        slot.Router?.ReleaseAll(reason);
        _scratchPackets.Clear();
        slot.Queue.DrainAll(_scratchPackets);
        CountControlQueued(slot);
        foreach (var packet in _scratchPackets)
        {
            Counters.CountDrop(reason);
            packet.Release();
        }

        _scratchPackets.Clear();
    }

    private static byte DefaultHopLimitFor(TorusShape shape)
    {
        var diameter = (long)(shape.X / 2) + (shape.Y / 2) + (shape.Z / 2);
        return (byte)Math.Min(255, (2 * diameter) + 16);
    }

    /// <summary>What a work item the node posts to its own loop does.</summary>
    internal enum WorkCode
    {
        Start = 1,
        Stop = 2,
        LocalDeliver = 3,
        Recompute = 4,
        HeartbeatTick = 5,
        SendDropNotice = 6,
    }
}
