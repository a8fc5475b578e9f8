using CamCube.Packets;
using CamCube.Runtime.Upcalls;
using CamCube.Services;

namespace CamCube.Runtime;

/// <content>Key- and server-based routing: resolve the destination, deliver here or queue for a shortest-path link.</content>
public sealed partial class Node
{
    private bool _recomputePosted;

    internal RouteStatus Originate(ServiceSlot slot, Packet packet, DestinationKind kind, KeyCoordinate destination)
    {
        if (!_running || !slot.Registered)
        {
            DropQuietly(packet, DropReason.Shutdown);
            return RouteStatus.DroppedInvalid;
        }

        if (!Shape.Contains(destination.Home))
        {
            DropWithLog(packet, DropReason.Malformed, $"{slot.Service.Name} routed to {destination}, outside the torus {Shape}");
            return RouteStatus.DroppedInvalid;
        }

        packet.StampHeader(slot.Id, kind, HopLimit, Self, destination);
        packet.ArrivalLink = null;
        return ContinueRouting(slot, packet, transit: false);
    }

    internal RouteStatus SendToNeighbor(ServiceSlot slot, Packet packet, LinkDirection link)
    {
        if (!_running || !slot.Registered || (_existingLinks & (1 << (int)link)) == 0)
        {
            DropQuietly(packet, DropReason.NoRoute);
            return RouteStatus.DroppedInvalid;
        }

        if (slot.Queue.IsFull)
        {
            DropQuietly(packet, DropReason.QueueFull);
            return RouteStatus.DroppedQueueFull;
        }

        packet.StampHeader(slot.Id, DestinationKind.Neighbor, 1, Self, KeyCoordinate.At(Shape.Neighbor(Self, link), 0));
        packet.QueuedTimestamp = TimeProvider.GetTimestamp();
        slot.Queue.Enqueue(packet, (byte)(1 << (int)link));
        CountControlQueued(slot);
        Pump(link);
        return RouteStatus.Queued;
    }

    /// <summary>Resolves the packet's destination server and delivers or queues it. <paramref name="transit"/>: it arrived from a link.</summary>
    internal RouteStatus ContinueRouting(ServiceSlot slot, Packet packet, bool transit)
    {
        if (!TryResolve(packet, out var server))
        {
            DropRouted(slot, packet, DropReason.Unreachable);
            return RouteStatus.DroppedUnreachable;
        }

        if (server == Self)
        {
            if (transit && slot.DirectRouter is { } router && packet.DestinationKind == DestinationKind.Key)
            {
                // The service's hop inspection would hand it to its router unchanged: F is asked here.
                slot.Counters.PacketsDelivered++;
                router.Arrived(packet, responsible: true);
            }
            else if (transit)
            {
                Deliver(slot, packet);
            }
            else
            {
                // Delivered from the loop, not inside the caller's own call: no re-entrancy.
                Post(WorkCode.LocalDeliver, slot.Id, packet);
            }

            return RouteStatus.DeliveredLocally;
        }

        // A service that keeps ServiceBase's OnForward forwards unchanged: no upcall, no second resolve.
        if (transit && slot.Forwards)
        {
            if (slot.DirectRouter is { } passing && packet.DestinationKind == DestinationKind.Key)
            {
                // As RoutedServiceBase.OnForward with the default hop inspection: on towards the destination.
                passing.Arrived(packet, responsible: false);
                return RouteStatus.Queued;
            }

            if (!TryUpcall<ForwardUpcall, ForwardDecision>(slot, new ForwardUpcall(packet), packet, out var decision))
            {
                return RouteStatus.DroppedInvalid;
            }

            if (decision == ForwardDecision.Consumed)
            {
                return RouteStatus.Queued;
            }

            if (decision == ForwardDecision.Drop)
            {
                DropQuietly(packet, DropReason.DroppedByService);
                return RouteStatus.DroppedInvalid;
            }

            // The service may have rewritten the destination.
            if (!TryResolve(packet, out server))
            {
                DropRouted(slot, packet, DropReason.Unreachable);
                return RouteStatus.DroppedUnreachable;
            }

            if (server == Self)
            {
                Deliver(slot, packet);
                return RouteStatus.DeliveredLocally;
            }
        }

        if (transit)
        {
            slot.Counters.PacketsForwarded++;
        }

        return Enqueue(slot, packet, server);
    }

    private RouteStatus Enqueue(ServiceSlot slot, Packet packet, Coordinate server)
    {
        if (packet.HopLimit == 0)
        {
            DropRouted(slot, packet, DropReason.HopLimitExceeded, $"packet of service 0x{packet.ServiceId:X4} from {packet.Source} to {packet.Destination} after {packet.HopCount} hops");
            return RouteStatus.DroppedInvalid;
        }

        var links = (byte)(Routes.NextHops(server) & _upLinks);
        if (links == 0)
        {
            DropRouted(slot, packet, DropReason.NoRoute);
            return RouteStatus.DroppedUnreachable;
        }

        if (slot.Queue.IsFull)
        {
            DropQuietly(packet, DropReason.QueueFull);
            return RouteStatus.DroppedQueueFull;
        }

        packet.QueuedTimestamp = TimeProvider.GetTimestamp();
        if (slot.Queue.Count == 0 && TrySendAtOnce(slot, packet, links))
        {
            return RouteStatus.Queued;
        }

        slot.Queue.Enqueue(packet, links);
        CountControlQueued(slot);
        PumpUntilTaken(packet, links);
        return RouteStatus.Queued;
    }

    private bool TryResolve(Packet packet, out Coordinate server)
    {
        if (packet.DestinationKind == DestinationKind.Key)
        {
            // The routing table caches roots per reachability version: cheaper than walking the keyspace.
            return Routes.TryGetRoot(KeySpace, packet.Destination, out server);
        }

        server = packet.DestinationServer;
        return Routes.Reachability.IsReachable(server);
    }

    /// <summary>Liveness decided a link is up or down: tell link state and services, and re-route what waited for a dead link.</summary>
    internal void SetLinkUp(LinkDirection link, bool up)
    {
        var bit = (byte)(1 << (int)link);
        if (((_upLinks & bit) != 0) == up)
        {
            return;
        }

        _upLinks = up ? (byte)(_upLinks | bit) : (byte)(_upLinks & ~bit);
        Log.LinkChanged(_logger, Self, link.ToShortName(), up ? "up" : "down");
        _linkState.OnLocalLinkChanged(link, up);
        if (!up)
        {
            RerouteOrphans(link);
        }

        UpcallDataServices(new LinkChangedUpcall(link, up));

        if (up)
        {
            Pump(link);
        }
    }

    private void RerouteOrphans(LinkDirection link)
    {
        foreach (var slot in _slotsById.Values.ToArray())
        {
            slot.Router?.RemoveLink(link);
            _scratchPackets.Clear();
            slot.Queue.RemoveLink(link, _scratchPackets);
            CountControlQueued(slot);
            var orphans = _scratchPackets.ToArray();
            _scratchPackets.Clear();
            foreach (var packet in orphans)
            {
                if (packet.DestinationKind == DestinationKind.Neighbor)
                {
                    DropQuietly(packet, DropReason.NoRoute);
                }
                else
                {
                    ContinueRouting(slot, packet, transit: false);
                }
            }
        }
    }

    /// <summary>The link-state database changed: recompute routes soon and announce reachability changes.</summary>
    internal void ScheduleRecompute()
    {
        if (!_recomputePosted)
        {
            _recomputePosted = true;
            Post(WorkCode.Recompute);
        }
    }

    private void RecomputeRoutes()
    {
        _recomputePosted = false;
        Routes.Refresh();
        var changes = Routes.TakeReachabilityChanges();
        foreach (var (server, reachable) in changes)
        {
            Log.ServerReachability(_logger, Self, server, reachable ? "reachable" : "unreachable");
            UpcallDataServices(new ReachabilityUpcall(server, reachable));
        }

        if (changes.Length > 0)
        {
            AnnounceOwnershipChanges(changes);
        }
    }

    /// <summary>Tells each service that watches key coordinates which of them changed root or replica set with these reachability changes.</summary>
    private void AnnounceOwnershipChanges((Coordinate Server, bool Reachable)[] changes)
    {
        foreach (var slot in _dataSlots.ToArray())
        {
            for (var i = 0; i < slot.KeyWatches.Count && slot.Registered; i++)
            {
                var watch = slot.KeyWatches[i];
                var changed = watch.TakeChanges(changes);
                if (changed.Count > 0)
                {
                    TryUpcall<OwnershipUpcall, bool>(slot, new OwnershipUpcall(watch, changed), null, out _);
                }
            }
        }
    }
}
