using CamCube.Packets;
using CamCube.Runtime.ExtendedRouting;
using CamCube.Runtime.Ownership;
using CamCube.Runtime.Posting;
using CamCube.Services;
using Microsoft.Extensions.Logging;

namespace CamCube.Runtime;

/// <summary>One service's handle on its node: the KBR API, stamped with the service's id.</summary>
internal sealed class ServiceContext(Node node, ServiceSlot slot) : INodeContext
{
    private ILogger? _logger;

    public Coordinate Self => node.Self;

    public TorusShape Shape => node.Shape;

    public KeySpace KeySpace => node.KeySpace;

    public TimeProvider TimeProvider => node.TimeProvider;

    public Random Random => node.Random;

    public ILogger Logger => _logger ??= node.CreateLogger("CamCube.Services." + slot.Service.Name);

    public IReachabilityView Reachability => node.Reachability;

    public byte DefaultHopLimit => node.HopLimit;

    public bool IsLinkUp(LinkDirection link) => node.IsLinkUp(link);

    public bool HasLinkRoom(LinkDirection link) => node.HasLinkRoom(link);

    public int QueuedPacketCount => slot.Queue.Count + (slot.Router?.QueuedCount ?? 0);

    public int SendQueuePacketsMax => slot.Queue.PacketsMax;

    public Packet CreatePacket() => node.Pool.Rent();

    public RouteStatus RouteToKey(Packet packet, KeyCoordinate destination)
    {
        ArgumentNullException.ThrowIfNull(packet);
        return node.Originate(slot, packet, DestinationKind.Key, destination);
    }

    public RouteStatus RouteToKey(Packet packet, Key key) => RouteToKey(packet, node.KeySpace.KeyCoordinateOf(key));

    public RouteStatus RouteToServer(Packet packet, Coordinate server)
    {
        ArgumentNullException.ThrowIfNull(packet);
        return node.Originate(slot, packet, DestinationKind.Server, KeyCoordinate.At(server, 0));
    }

    public int Transmit(Packet packet, ReadOnlySpan<Coordinate> servers, Span<RouteStatus> statuses)
    {
        ArgumentNullException.ThrowIfNull(packet);
        if (!statuses.IsEmpty && statuses.Length < servers.Length)
        {
            throw new ArgumentException($"{servers.Length} servers need as many statuses, or none; {statuses.Length} were given.", nameof(statuses));
        }

        var sent = 0;
        for (var i = 0; i < servers.Length; i++)
        {
            var status = node.Originate(slot, packet.Share(), DestinationKind.Server, KeyCoordinate.At(servers[i], 0));
            if (!statuses.IsEmpty)
            {
                statuses[i] = status;
            }

            if (status is RouteStatus.Queued or RouteStatus.DeliveredLocally)
            {
                sent++;
            }
        }

        return sent;
    }

    public RouteStatus Reroute(Packet packet)
    {
        ArgumentNullException.ThrowIfNull(packet);
        if (packet.Length < PacketHeader.SizeBytes || packet.DestinationKind == DestinationKind.Neighbor)
        {
            node.DropWithLog(packet, DropReason.Malformed, $"{slot.Service.Name} rerouted a packet that has no routed header");
            return RouteStatus.DroppedInvalid;
        }

        return node.ContinueRouting(slot, packet, transit: false);
    }

    public RouteStatus SendToNeighbor(Packet packet, LinkDirection link)
    {
        ArgumentNullException.ThrowIfNull(packet);
        return node.SendToNeighbor(slot, packet, link);
    }

    public int GetServersForKey(KeyCoordinate key, Span<Coordinate> destination) =>
        node.KeySpace.GetServersForKey(key, node.Reachability, destination);

    public Coordinate GetRoot(KeyCoordinate key) =>
        node.KeySpace.TryGetRoot(key, node.Reachability, out var root) ? root : node.Self;

    public IReadOnlyList<Coordinate> GetUnreachableServers() => node.Routes.GetUnreachableServers();

    public T? GetService<T>()
        where T : class, IService => node.GetService<T>();

    public void RequestPoll() => node.PumpLinks(node.ExistingLinks);

    public byte GetNextHops(Coordinate server) => node.Shape.Contains(server) ? (byte)(node.Routes.NextHops(server) & node.UpLinks) : (byte)0;

    public IExtendedRouter CreateExtendedRouter(IRoutingProtocol protocol, RoutingQueueOptions defaultQueue)
    {
        ArgumentNullException.ThrowIfNull(protocol);
        ArgumentNullException.ThrowIfNull(defaultQueue);
        if (slot.Router is not null)
        {
            throw new InvalidOperationException($"Service {slot.Service.Name} already has an extended router on node {node.Self}.");
        }

        var router = new ExtendedRouter(node, slot, protocol, defaultQueue);
        slot.AttachRouter(router);
        return router;
    }

    public IKeyWatch CreateKeyWatch(int replicaCount)
    {
        if (replicaCount < 1 || replicaCount > node.Shape.ServerCount)
        {
            throw new ArgumentOutOfRangeException(nameof(replicaCount), replicaCount, $"r is from 1 to the number of servers, {node.Shape.ServerCount}.");
        }

        if (slot.Service is not IOwnershipObserver)
        {
            throw new InvalidOperationException($"Service {slot.Service.Name} watches key coordinates but does not implement IOwnershipObserver, so it could not hear of their changes.");
        }

        var watch = new KeyWatch(node, slot, replicaCount);
        slot.KeyWatches.Add(watch);
        return watch;
    }

    public ITimer CreateTimer(Action callback, TimeSpan dueTime, TimeSpan period)
    {
        ArgumentNullException.ThrowIfNull(callback);
        return new LoopTimer(node, slot, callback, dueTime, period);
    }

    public void Drop(Packet packet, DropReason reason)
    {
        ArgumentNullException.ThrowIfNull(packet);
        node.DropQuietly(packet, reason);
    }

    public bool TryPost(Action<object?> callback, object? state)
    {
        ArgumentNullException.ThrowIfNull(callback);
        return slot.Mailbox.TryPost(callback, state);
    }

    public void Post(Action action)
    {
        ArgumentNullException.ThrowIfNull(action);
        if (!slot.Mailbox.TryPost(action, null))
        {
            throw new InvalidOperationException(RefusedWhy());
        }
    }

    public Task<T> InvokeAsync<T>(Func<T> function)
    {
        ArgumentNullException.ThrowIfNull(function);
        return Invoke(new PostedCall<T>(function));
    }

    public Task<T> InvokeAsync<T>(Func<Task<T>> function)
    {
        ArgumentNullException.ThrowIfNull(function);
        return Invoke(new PostedCall<T>(function));
    }

    public Task InvokeAsync(Action action)
    {
        ArgumentNullException.ThrowIfNull(action);
        return Invoke(new PostedCall<bool>(() =>
        {
            action();
            return true;
        }));
    }

    public Task InvokeAsync(Func<Task> function)
    {
        ArgumentNullException.ThrowIfNull(function);
        return Invoke(new PostedCall<bool>(function));
    }

    private Task<T> Invoke<T>(PostedCall<T> call)
    {
        if (!slot.Mailbox.TryPost(PostedCall<T>.Run, call))
        {
            call.Refuse(RefusedWhy());
        }

        return call.Task;
    }

    private string RefusedWhy() => slot.Registered
        ? $"Service {slot.Service.Name} on node {node.Self} already has {node.Options.PostedItemsMax} posted items waiting."
        : $"Service {slot.Service.Name} is no longer registered on node {node.Self}.";
}
