using CamCube.Packets;
using CamCube.Services;

namespace CamCube.Runtime.ExtendedRouting;

/// <summary>
/// The extended routing service for one service on one node (symbiotic-routing 5). A packet waits
/// in the queue <c>classify</c> picks, in the ring of every link on a shortest path to one of its
/// next key coordinates K (never the link it came in on); the first such link to poll takes it,
/// and its destination becomes the entry of K that link leads to (chosen at random among several).
/// Queues of one service share links by weighted fair queuing; the node shares links fairly
/// across services. A packet older than its queue's limit is dropped when it comes up.
/// </summary>
internal sealed partial class ExtendedRouter : IExtendedRouter
{
    /// <summary>The largest K that F may return.</summary>
    public const int DefaultTargetsMax = 16;

    /// <summary>The queued time of a packet queued during the pump that is still running (not yet read from the clock).</summary>
    private const long NotStamped = long.MinValue;

    private readonly Node _node;
    private readonly ServiceSlot _slot;
    private readonly IRoutingProtocol _protocol;

    /// <summary>The protocol as the base class most services use: F through a virtual call, not an interface stub.</summary>
    private readonly RoutedServiceBase? _routedService;
    private readonly List<RouterQueue> _queues = [];

    /// <summary>The only queue while the service has one (most do), so polls and classify read one field; null once it has more.</summary>
    private RouterQueue? _onlyQueue;
    private readonly Stack<TargetSet> _freeTargets = new();

    /// <summary>The targets of <see cref="_pending"/>, the packet being queued while the pump that may take it runs.</summary>
    private readonly TargetSet _pendingSet = new(DefaultTargetsMax);
    private Packet? _pending;
    private readonly long[] _virtualTime = new long[LinkDirections.Count];
    private readonly List<Packet> _orphans = [];
    private readonly KeyCoordinate[] _scratch;

    public ExtendedRouter(Node node, ServiceSlot slot, IRoutingProtocol protocol, RoutingQueueOptions defaultQueue)
    {
        _node = node;
        _slot = slot;
        _protocol = protocol;
        _routedService = protocol as RoutedServiceBase;
        _scratch = new KeyCoordinate[TargetsMax];
        AddQueue(0, defaultQueue);
    }

    public int TargetsMax => DefaultTargetsMax;

    public int QueuedCount
    {
        get
        {
            var count = 0;
            foreach (var queue in _queues)
            {
                count += queue.Packets.Count;
            }

            return count;
        }
    }

    public void AddQueue(int queueId, RoutingQueueOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        if (queueId < 0 || FindQueue(queueId) is not null)
        {
            throw new ArgumentException($"Queue id {queueId} of {_slot.Service.Name} is negative or already added.", nameof(queueId));
        }

        if (options.Weight is < 1 or > 1_000 || options.QueueTimeMax <= TimeSpan.Zero || options.PacketsMax < 0)
        {
            throw new ArgumentOutOfRangeException(nameof(options), options, "A queue's weight is from 1 to 1,000, its time limit is positive and its capacity is not negative.");
        }

        var queue = new RouterQueue(queueId, options, options.PacketsMax > 0 ? options.PacketsMax : _slot.Queue.PacketsMax, _node.TimeProvider);
        Array.Copy(_virtualTime, queue.Pass, _virtualTime.Length);
        _queues.Add(queue);
        _onlyQueue = _queues.Count == 1 ? queue : null;
    }

    public RouteStatus Route(Packet packet, ushort w = 0)
    {
        ArgumentNullException.ThrowIfNull(packet);
        if (!_node.IsRunning || !_slot.Registered)
        {
            _node.DropQuietly(packet, DropReason.Shutdown);
            return RouteStatus.DroppedInvalid;
        }

        var current = KeyCoordinate.At(_node.Self, w);
        packet.StampHeader(_slot.Id, DestinationKind.Key, _node.HopLimit, _node.Self, current);
        packet.ArrivalLink = null;
        return Evaluate(packet, current);
    }

    public RouteStatus Route(Packet packet, KeyCoordinate from)
    {
        ArgumentNullException.ThrowIfNull(packet);
        if (!_node.IsRunning || !_slot.Registered)
        {
            _node.DropQuietly(packet, DropReason.Shutdown);
            return RouteStatus.DroppedInvalid;
        }

        if (!_node.Shape.Contains(from.Home))
        {
            _node.DropWithLog(packet, DropReason.Malformed, $"{_slot.Service.Name} routed from {from}, outside the torus {_node.Shape}");
            return RouteStatus.DroppedInvalid;
        }

        packet.StampHeader(_slot.Id, DestinationKind.Key, _node.HopLimit, _node.Self, from);
        packet.ArrivalLink = null;
        return Arrived(packet, _node.Routes.TryGetRoot(_node.KeySpace, from, out var root) && root == _node.Self);
    }

    public bool RemoveQueue(int queueId)
    {
        if (queueId == 0)
        {
            throw new ArgumentException($"The default queue of {_slot.Service.Name} (id 0) cannot be removed.", nameof(queueId));
        }

        var queue = FindQueue(queueId);
        if (queue is null)
        {
            return false;
        }

        Release(queue, DropReason.Shutdown);
        _queues.Remove(queue);
        _onlyQueue = _queues.Count == 1 ? _queues[0] : null;
        return true;
    }

    public RouteStatus Continue(Packet packet)
    {
        ArgumentNullException.ThrowIfNull(packet);
        if (packet.DestinationKind != DestinationKind.Key)
        {
            _node.DropWithLog(packet, DropReason.Malformed, $"{_slot.Service.Name} handed the extended router a packet without a key destination");
            return RouteStatus.DroppedInvalid;
        }

        return Arrived(packet, _node.Routes.TryGetRoot(_node.KeySpace, packet.Destination, out var root) && root == _node.Self);
    }

    /// <summary>
    /// Routes a key-routed packet on from this hop: from <see cref="Continue"/>, or straight from the
    /// node for a service whose hop inspection hands every packet on (see <see cref="ServiceSlot.DirectRouter"/>).
    /// <paramref name="responsible"/>: this server is the root of the packet's destination, so F is
    /// asked; otherwise it goes on towards that destination.
    /// </summary>
    internal RouteStatus Arrived(Packet packet, bool responsible)
    {
        var destination = packet.Destination;
        if (responsible)
        {
            return Evaluate(packet, destination);
        }

        _scratch[0] = destination;
        return Enqueue(packet, _scratch.AsSpan(0, 1));
    }

    public int Transmit(Packet packet, ReadOnlySpan<KeyCoordinate> targets)
    {
        ArgumentNullException.ThrowIfNull(packet);
        var queued = 0;
        foreach (var target in targets)
        {
            // One payload for every target: each gets a header of its own (Packet.Share).
            var header = packet.Share();
            header.ArrivalLink = packet.ArrivalLink;
            if (Enqueue(header, [target]) is RouteStatus.Queued or RouteStatus.DeliveredLocally)
            {
                queued++;
            }
        }

        return queued;
    }

    /// <summary>Asks F where a packet this server is responsible for goes next, and queues it.</summary>
    private RouteStatus Evaluate(Packet packet, KeyCoordinate current)
    {
        int count;
        try
        {
            count = _routedService is { } service ? service.F(packet, current, _scratch) : _protocol.F(packet, current, _scratch);
        }
#pragma warning disable CA1031 // A faulty F loses its packet only.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            Log.ServiceThrew(_node.CreateLogger("CamCube.Runtime.ExtendedRouting"), ex, _slot.Service.Name, "F", _node.Self);
            _node.DropQuietly(packet, DropReason.RoutingFunctionFault);
            return RouteStatus.DroppedInvalid;
        }

        if (count <= 0)
        {
            _node.DropQuietly(packet, DropReason.EmptyTargetSet);
            return RouteStatus.DroppedInvalid;
        }

        return Enqueue(packet, _scratch.AsSpan(0, Math.Min(count, TargetsMax)));
    }
}
