using System.Buffers;
using CamCube.Packets;

namespace CamCube.Services.Cache;

/// <summary>The root's side (camcubeos 5.1): it executes requests on its items, answers, records and invalidates copies.</summary>
public sealed partial class CacheService
{
    /// <summary>A request reached the root of its memId: execute it and answer, under the store's lock (the front-end's local path shares the items).</summary>
    private void OnRequestAtRoot(Packet packet)
    {
        if (RefusedWithoutMajority(packet))
        {
            return;
        }

        lock (Store.Gate)
        {
            if (CacheMessage.CodeOf(packet.Payload) != (byte)CacheOperation.Get && TryAnswerRepeatedWrite(packet))
            {
                return;
            }

            ExecuteAtRoot(packet);
        }
    }

    /// <summary>
    /// Cut off from most servers, which may be serving the key at a stand-in root: the request is
    /// neither served nor answered (the requester, cut off as well, times out; a view that is still
    /// forming has it send again). False while this server has the majority.
    /// </summary>
    private bool RefusedWithoutMajority(Packet packet)
    {
        if (HasMajority)
        {
            return false;
        }

        Statistics.CountRefusedWithoutMajority();
        packet.Release();
        return true;
    }

    /// <summary>Executes a request at this root (a write sent again was answered before this, from <see cref="TryAnswerRepeatedWrite"/>); under the store's lock.</summary>
    private void ExecuteAtRoot(Packet packet)
    {
        var p = packet.Payload;
        CacheMessage.SetHops(p, packet.HopCount);
        var operation = (CacheOperation)CacheMessage.CodeOf(p);
        var key = CacheMessage.KeyOf(p);
        var requester = CacheMessage.RequesterOf(p);

        CacheItem? item;
        CacheStatus status;
        switch (operation)
        {
            case CacheOperation.Get:
                item = Store.GetPrimary(key);
                if (item is null)
                {
                    // The store's value, if it holds one here, answers without a copy in the cache (and none at the secondary).
                    var source = TryReadSource(key, out var value, out var flags, out var version) ? new CacheItem(key.ToArray(), value.ToArray()) { Flags = flags, Cas = version } : null;
                    SendResponse(p, source is null ? CacheStatus.Miss : CacheStatus.Hit, source, requester, fill: false);
                    break;
                }

                // The answer travels back through the secondary that missed, which keeps a copy; the root records it.
                var secondary = CacheMessage.SecondaryOf(p);
                var fill = secondary is { } s && s != Node.Self && RecordCopyHolder(item, s, Node.TimeProvider.GetTimestamp());
                SendResponse(p, CacheStatus.Hit, item, fill ? secondary!.Value : requester, fill);
                break;
            case CacheOperation.Set when SourceHoldsTheSame(packet):
                // camcubeos 5.2: no second copy of what the store holds here; the old item goes, as on delete.
                Store.Delete(key, out item);
                AfterWrite(CacheStatus.Stored, item, p, requester, null);
                break;
            case >= CacheOperation.Set and <= CacheOperation.Cas:
                if (!TryStoreAtRoot(packet, operation, out status, out item))
                {
                    break;
                }

                AfterWrite(status, item, p, requester, null);
                break;
            case CacheOperation.Delete:
                status = Store.Delete(key, out item);
                AfterWrite(status, item, p, requester, null);
                break;
            case CacheOperation.Touch:
                status = Store.Touch(key, CacheMessage.ExpirationOf(p), out item);
                AfterWrite(status, item, p, requester, null);
                break;
            case CacheOperation.GetAndTouch:
                status = Store.Touch(key, CacheMessage.ExpirationOf(p), out item);
                AfterWrite(status == CacheStatus.Touched ? CacheStatus.Hit : CacheStatus.Miss, item, p, requester, item);
                break;
            case CacheOperation.Increment or CacheOperation.Decrement:
                status = Store.IncrementOrDecrement(key, CacheMessage.CasOf(p), operation == CacheOperation.Increment, out item);
                AfterWrite(status, item, p, requester, item);
                break;
            default:
                Node.Drop(packet, DropReason.Malformed);
                return;
        }

        packet.Release();
    }

    /// <summary>
    /// Stores the value of a store request; false while fragments of it are still to come. A value in
    /// one packet is read from the packet, so a set that keeps an item's length allocates nothing.
    /// </summary>
    private bool TryStoreAtRoot(Packet packet, CacheOperation operation, out CacheStatus status, out CacheItem? item)
    {
        var p = packet.Payload;
        var key = CacheMessage.KeyOf(p);
        var chunk = CacheMessage.ChunkOf(p);
        var total = CacheMessage.ValueLengthOf(p);
        if (CacheMessage.ChunkOffsetOf(p) == 0 && chunk.Length == total)
        {
            var start = PacketHeader.SizeBytes + CacheMessage.FixedBytes + key.Length;
            var value = new ReadOnlySequence<byte>(packet.Buffer, start, total);
            status = Store.Store(operation, key, CacheMessage.FlagsOf(p), CacheMessage.ExpirationOf(p), value, null, CacheMessage.CasOf(p), Node.Self, out item);
            WatchRoot(key, Node.Self);
            return true;
        }

        var assembled = CacheMessage.Assemble(_assembler!, p, Node.TimeProvider.GetTimestamp());
        if (assembled is null)
        {
            (status, item) = (default, null);
            return false;
        }

        status = Store.Store(operation, key, CacheMessage.FlagsOf(p), CacheMessage.ExpirationOf(p), assembled, CacheMessage.CasOf(p), Node.Self, out item);
        WatchRoot(key, Node.Self);
        return true;
    }

    /// <summary>Answers the request in <paramref name="request"/>, in as many packets as the item's value needs; reads the item under the store's lock.</summary>
    private void SendResponse(ReadOnlySpan<byte> request, CacheStatus status, CacheItem? item, Coordinate to, bool fill)
    {
        lock (Store.Gate)
        {
            SendResponseLocked(request, status, item, to, fill);
        }
    }

    private void SendResponseLocked(ReadOnlySpan<byte> request, CacheStatus status, CacheItem? item, Coordinate to, bool fill)
    {
        var start = CacheMessage.FixedBytes + request[CacheMessage.KeyLengthOffset];
        var value = item?.Value ?? [];
        var offset = 0;
        do
        {
            var packet = Node.CreatePacket();
            var area = packet.PayloadArea;
            request[..start].CopyTo(area);
            CacheMessage.SetType(area, CacheMessageType.Response);
            CacheMessage.SetCode(area, (byte)status);
            CacheMessage.SetItem(area, item?.Flags ?? 0, item is null ? 0 : Store.RemainingSeconds(item), item?.Cas ?? 0);
            if (!fill)
            {
                CacheMessage.SetSecondary(area, null);
            }

            var chunk = Math.Min(value.Length - offset, packet.PayloadCapacity - start);
            CacheMessage.SetValue(area, value.Length, offset);
            value.AsSpan(offset, chunk).CopyTo(area[start..]);
            packet.PayloadLength = start + chunk;
            Node.RouteToServer(packet, to);
            offset += chunk;
        }
        while (offset < value.Length);
    }

    private void SendInvalidate(ReadOnlySpan<byte> request, Coordinate holder)
    {
        var start = CacheMessage.FixedBytes + request[CacheMessage.KeyLengthOffset];
        var packet = Node.CreatePacket();
        var area = packet.PayloadArea;
        request[..start].CopyTo(area);
        CacheMessage.SetType(area, CacheMessageType.Invalidate);
        CacheMessage.SetValue(area, 0, 0);
        packet.PayloadLength = start;
        Statistics.CountInvalidation();
        Node.RouteToServer(packet, holder);
    }

    /// <summary>A packet routed to this server: an answer, an invalidation, a flush or its acknowledgement.</summary>
    private void OnServerMessage(Packet packet)
    {
        var p = packet.Payload;
        switch (CacheMessage.TypeOf(p))
        {
            case CacheMessageType.Response:
                OnResponse(packet);
                return;
            case CacheMessageType.Request:
                OnWriteAtServer(packet);
                return;
            case CacheMessageType.Invalidate:
                OnInvalidate(packet);
                return;
            case CacheMessageType.InvalidateAck:
                OnInvalidateAck(packet);
                return;
            case CacheMessageType.Flush:
                Store.FlushAll(CacheMessage.ExpirationOf(p));
                var ack = Node.CreatePacket();
                p[..CacheMessage.FixedBytes].CopyTo(ack.PayloadArea);
                CacheMessage.SetType(ack.PayloadArea, CacheMessageType.FlushAck);
                ack.PayloadArea[CacheMessage.KeyLengthOffset] = 0;
                CacheMessage.SetValue(ack.PayloadArea, 0, 0);
                ack.PayloadLength = CacheMessage.FixedBytes;
                Node.RouteToServer(ack, CacheMessage.RequesterOf(p));
                break;
            case CacheMessageType.FlushAck:
                var id = CacheMessage.RequestIdOf(p);
                if (_pending.TryGetValue(id, out var pending) && --pending.AcksLeft == 0)
                {
                    Complete(id, CacheStatus.Ok);
                }

                break;
        }

        packet.Release();
    }

    /// <summary>An answer: the secondary that asked keeps a copy and passes it on; the requester completes its request.</summary>
    private void OnResponse(Packet packet)
    {
        var p = packet.Payload;
        var status = (CacheStatus)CacheMessage.CodeOf(p);
        var requester = CacheMessage.RequesterOf(p);
        if (CacheMessage.SecondaryOf(p) == Node.Self)
        {
            var now = Node.TimeProvider.GetTimestamp();
            if (status == CacheStatus.Hit && MayKeepCopy(p, packet.Source, now, out var leaseEnd) && CacheMessage.Assemble(_assembler!, p, now) is { } value)
            {
                Store.PutCopy(CacheMessage.KeyOf(p), value, CacheMessage.FlagsOf(p), CacheMessage.CasOf(p), CacheMessage.ExpirationOf(p), packet.Source, leaseEnd);
                WatchRoot(CacheMessage.KeyOf(p), packet.Source);
            }

            if (requester != Node.Self)
            {
                // The fragment travels on to the requester unchanged but for the secondary mark.
                CacheMessage.SetSecondary(p, null);
                Node.RouteToServer(packet, requester);
                return;
            }
        }

        if (requester == Node.Self)
        {
            OnAnswer(p, status);
        }

        packet.Release();
    }

    /// <summary>A fragment of the answer to one of this node's requests: the value goes straight into the request.</summary>
    private void OnAnswer(ReadOnlySpan<byte> p, CacheStatus status)
    {
        var id = CacheMessage.RequestIdOf(p);
        if (status == CacheStatus.Moved)
        {
            OnMoved(id);
            return;
        }

        var total = CacheMessage.ValueLengthOf(p);
        if (total <= Options.ItemSizeMaxBytes
            && _pending.TryGetValue(id, out var pending)
            && pending.AddResponseChunk(total, CacheMessage.ChunkOffsetOf(p), CacheMessage.ChunkOf(p), CacheMessage.FlagsOf(p), CacheMessage.CasOf(p), CacheMessage.HopsOf(p)))
        {
            Complete(id, status);
        }
    }

    /// <summary>flush_all goes to every server this node can reach, each of which acknowledges.</summary>
    private void SendFlushes(PendingRequest pending)
    {
        var shape = Node.Shape;
        pending.AcksLeft = 0;
        for (long i = 0; i < shape.ServerCount; i++)
        {
            var server = shape.CoordinateAt(i);
            if (!Node.Reachability.IsReachable(server) && server != Node.Self)
            {
                continue;
            }

            var packet = Node.CreatePacket();
            CacheMessage.Write(packet.PayloadArea, CacheMessageType.Flush, RouteStage.Primary, 0, pending.RequestId, Node.Self, default, 0, []);
            CacheMessage.SetItem(packet.PayloadArea, 0, pending.Call.FlushDelaySeconds, 0);
            packet.PayloadLength = CacheMessage.FixedBytes;
            pending.AcksLeft++;
            Node.RouteToServer(packet, server);
        }
    }
}
