using System.Buffers;
using CamCube.Packets;

namespace CamCube.Services.Cache;

/// <summary>The cache's routing protocol: its F function and what it does with its packets at each hop (symbiotic-routing 7).</summary>
public sealed partial class CacheService : IHopInspector
{
    /// <summary>
    /// symbiotic-routing 7: "At the source of a lookup, F determines the key coordinate of the object
    /// to be retrieved and returns the key coordinate of the closest replica." At the secondary a hit
    /// is answered in <see cref="OnHop"/> and never reaches F; on a miss F returns the primary. Writes
    /// go to the primary from the start.
    /// </summary>
    /// <inheritdoc/>
    public override int F(Packet packet, KeyCoordinate current, Span<KeyCoordinate> next)
    {
        ArgumentNullException.ThrowIfNull(packet);
        var p = packet.Payload;
        var primary = CacheMessage.PrimaryOf(p);
        switch (CacheMessage.StageOf(p))
        {
            case RouteStage.Source:
                var k = HotSpotReplicas.GetSecondaries(primary, Options.SecondaryReplicaCount, Node.Shape, _secondaries);
                var closest = HotSpotReplicas.ChooseClosest(current, primary, _secondaries.AsSpan(0, k), Node.Shape, p[CacheMessage.TieBreakOffset]);
                CacheMessage.SetStage(p, closest == primary ? RouteStage.Primary : RouteStage.Secondary);
                next[0] = closest;
                return 1;
            case RouteStage.Secondary:
                // A miss at the secondary: on to the primary, remembering who will keep the copy and
                // when it asked, which starts the copy's lease.
                CacheMessage.SetSecondary(p, Node.Self);
                CacheMessage.SetLeaseStart(p, Node.TimeProvider.GetTimestamp());
                CacheMessage.SetStage(p, RouteStage.Primary);
                next[0] = primary;
                return 1;
            default:
                next[0] = primary;
                return 1;
        }
    }

    /// <inheritdoc/>
    public HopAction OnHop(Packet packet, bool responsible)
    {
        ArgumentNullException.ThrowIfNull(packet);
        var p = packet.Payload;
        if (!CacheMessage.IsWellFormed(p))
        {
            return HopAction.Drop;
        }

        if (packet.DestinationKind != DestinationKind.Key)
        {
            // Answers, invalidations and flushes go to a server by base routing.
            if (!responsible)
            {
                Node.Reroute(packet);
                return HopAction.Consumed;
            }

            OnServerMessage(packet);
            return HopAction.Consumed;
        }

        if (!responsible || CacheMessage.TypeOf(p) != CacheMessageType.Request)
        {
            return HopAction.Route;
        }

        switch (CacheMessage.StageOf(p))
        {
            case RouteStage.Secondary:
                return AnswerFromCopy(packet) ? HopAction.Consumed : HopAction.Route;
            case RouteStage.Primary:
                OnRequestAtRoot(packet);
                return HopAction.Consumed;
            default:
                return HopAction.Route;
        }
    }

    /// <summary>Sends a request from its source, in as many fragments as its value needs: a read to its key, a write to the server chosen for it (<c>Destination</c>, CacheService.Writes).</summary>
    private void SendRequest(PendingRequest request)
    {
        // One copy of the call: it is read field by field below.
        var call = request.Call;
        var key = call.Key.Span;
        var primary = Node.KeySpace.KeyCoordinateOf(CacheKeys.MemId(key));
        var isRead = call.Operation == CacheOperation.Get;
        var stage = isRead && Options.SecondaryReplicaCount > 0 ? RouteStage.Source : RouteStage.Primary;
        var tieBreak = (byte)Node.Random.Next(256);

        var value = call.Value;
        var length = (int)value.Length;
        var offset = 0;
        do
        {
            var packet = Node.CreatePacket();
            var area = packet.PayloadArea;
            CacheMessage.Write(area, CacheMessageType.Request, stage, tieBreak, request.RequestId, Node.Self, primary, (byte)call.Operation, key);
            CacheMessage.SetItem(area, call.Flags, call.ExpirationSeconds, call.CasOrDelta);
            var start = CacheMessage.FixedBytes + key.Length;
            var chunk = Math.Min(length - offset, packet.PayloadCapacity - start);
            CacheMessage.SetValue(area, length, offset);
            value.Slice(offset, chunk).CopyTo(area[start..]);
            packet.PayloadLength = start + chunk;
            if (isRead)
            {
                Router.Route(packet, primary.W);
            }
            else
            {
                // A write: every copy to the root chosen when it was sent (CacheService.Writes).
                Node.RouteToServer(packet, request.Destination!.Value);
            }

            offset += chunk;
        }
        while (offset < length);
    }

    /// <summary>At the secondary: a copy answers at once (camcubeos 5.1); returns false on a miss.</summary>
    private bool AnswerFromCopy(Packet packet)
    {
        var p = packet.Payload;
        var item = Store.Get(CacheMessage.KeyOf(p));
        if (item is null)
        {
            return false;
        }

        if (item.IsCopy)
        {
            Statistics.CountSecondaryHit();
        }

        CacheMessage.SetHops(p, packet.HopCount);
        SendResponse(p, CacheStatus.Hit, item, CacheMessage.RequesterOf(p), fill: false);
        packet.Release();
        return true;
    }
}
