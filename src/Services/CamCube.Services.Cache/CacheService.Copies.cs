using CamCube.Packets;

namespace CamCube.Services.Cache;

/// <summary>
/// Keeping secondaries' copies consistent with the root (camcubeos 5.1: "when an item is written,
/// the root invalidates the copies"), under loss: a copy is a lease; the root answers a write only
/// once every holder of a live copy acknowledged its invalidation or the lease ended, and repeats
/// invalidations until then. A client that got STORED or DELETED therefore never reads the old value
/// afterwards, through any front-end (docs: the cache's guarantee).
/// </summary>
public sealed partial class CacheService
{
    private readonly List<PendingWrite> _pendingWrites = [];
    private readonly Stack<PendingWrite> _spareWrites = new();
    private RecentWrites? _recentWrites;
    private InvalidatedKeys? _invalidated;
    private long _leaseTicks;
    private long _retransmitTicks;
    private long _retransmitTicksMax;

    // Written on the loop, read by the front-end's local path under the store's lock.
    private int _pendingWriteCount;

    private void InitializeCopies()
    {
        var frequency = Node.TimeProvider.TimestampFrequency;
        _leaseTicks = (long)(Options.CopyLease.TotalSeconds * frequency);
        _retransmitTicks = Math.Max(1, (long)(Options.RetransmitInterval.TotalSeconds * frequency));
        _retransmitTicksMax = (long)(Options.RetransmitIntervalMax.TotalSeconds * frequency);
        _recentWrites = new RecentWrites(Options.RecentWritesMax, (long)(2 * Options.RequestTimeout.TotalSeconds * frequency));
        _invalidated = new InvalidatedKeys(Options.InvalidatedKeysMax, _leaseTicks);
    }

    /// <summary>Records that <paramref name="holder"/> keeps a copy of <paramref name="item"/> until a lease from now; false if the item has too many holders.</summary>
    private bool RecordCopyHolder(CacheItem item, Coordinate holder, long now)
    {
        var holders = item.CopyHolders ??= [];
        var leaseEnd = now + _leaseTicks;
        for (var i = 0; i < holders.Count; i++)
        {
            if (holders[i].Server == holder || holders[i].LeaseEnd <= now)
            {
                holders[i] = new CopyHolder(holder, leaseEnd);
                return true;
            }
        }

        if (holders.Count >= Options.CopyHoldersMax)
        {
            return false;
        }

        holders.Add(new CopyHolder(holder, leaseEnd));
        return true;
    }

    /// <summary>
    /// A write at the root: the copies are invalidated (camcubeos 5.1), and the requester hears the
    /// outcome once no copy of the old value can answer any more; at once if none exists.
    /// </summary>
    private void AfterWrite(CacheStatus status, CacheItem? item, ReadOnlySpan<byte> request, Coordinate requester, CacheItem? withValue)
    {
        var now = Node.TimeProvider.GetTimestamp();
        var requestId = CacheMessage.RequestIdOf(request);
        var changed = status is not (CacheStatus.Miss or CacheStatus.NotStored or CacheStatus.Exists or CacheStatus.NotFound or CacheStatus.NonNumeric or CacheStatus.TooLarge or CacheStatus.OutOfMemory);
        var notBefore = changed ? Math.Max(Store.OrphanedLeaseEnd, StandInWritesNotBefore(CacheMessage.KeyOf(request), now)) : long.MinValue;
        // A write that changed nothing (a delete that found nothing, an add refused) still saw the
        // outcome of an earlier write that may be waiting for its copies: it is answered after it.
        var mustWait = (changed && (notBefore > now || HasLiveHolders(item, now))) || HasPendingWrite(CacheMessage.KeyOf(request));
        if (!mustWait)
        {
            _recentWrites!.Add(requester, requestId, status, answered: true, now);
            SendResponse(request, status, status == CacheStatus.Hit ? withValue : null, requester, fill: false);
            return;
        }

        var write = _spareWrites.TryPop(out var spare) ? spare : new PendingWrite();
        var answer = status == CacheStatus.Hit && withValue is not null
            ? new CacheItem(withValue.Key, withValue.Value) { Flags = withValue.Flags, Cas = withValue.Cas, ExpiresAt = withValue.ExpiresAt }
            : null;
        write.Prepare(request, status, answer, notBefore);
        if (item?.CopyHolders is { } holders)
        {
            foreach (var holder in holders)
            {
                if (holder.LeaseEnd > now)
                {
                    write.Awaiting.Add(holder);
                    SendInvalidate(write.RequestBytes, holder.Server);
                }
            }

            holders.Clear();
        }

        write.ResendAt = now + RetransmitTicks(0);
        _pendingWrites.Add(write);
        Volatile.Write(ref _pendingWriteCount, _pendingWrites.Count);
        _recentWrites!.Add(requester, requestId, status, answered: false, now);
    }

    /// <summary>A write sent again: answered as before if its answer went, else left to the write that waits.</summary>
    private bool TryAnswerRepeatedWrite(Packet packet)
    {
        var p = packet.Payload;
        var requester = CacheMessage.RequesterOf(p);
        if (!_recentWrites!.TryGet(requester, CacheMessage.RequestIdOf(p), out var status, out var answered))
        {
            return false;
        }

        if (answered)
        {
            var item = status == CacheStatus.Hit ? Store.GetPrimary(CacheMessage.KeyOf(p)) : null;
            SendResponse(p, item is null && status == CacheStatus.Hit ? CacheStatus.Miss : status, item, requester, fill: false);
        }

        packet.Release();
        return true;
    }

    /// <summary>At a copy holder: the copy goes, the key is remembered for a lease, and the root hears it.</summary>
    private void OnInvalidate(Packet packet)
    {
        var p = packet.Payload;
        var key = CacheMessage.KeyOf(p);
        lock (Store.Gate)
        {
            if (Store.Get(key) is { IsCopy: true })
            {
                Store.Remove(key);
            }
        }

        _invalidated!.Add(key, Node.TimeProvider.GetTimestamp());
        var root = packet.Source;
        CacheMessage.SetType(packet.PayloadArea, CacheMessageType.InvalidateAck);
        packet.PayloadLength = CacheMessage.FixedBytes + key.Length;
        Node.RouteToServer(packet, root);
    }

    /// <summary>At the root: a holder acknowledged an invalidation; the write it belongs to may be answered now.</summary>
    private void OnInvalidateAck(Packet packet)
    {
        var p = packet.Payload;
        var requester = CacheMessage.RequesterOf(p);
        var requestId = CacheMessage.RequestIdOf(p);
        foreach (var write in _pendingWrites)
        {
            if (write.RequestId == requestId && write.Requester == requester)
            {
                var awaiting = write.Awaiting;
                for (var i = awaiting.Count - 1; i >= 0; i--)
                {
                    if (awaiting[i].Server == packet.Source)
                    {
                        awaiting.RemoveAt(i);
                    }
                }

                break;
            }
        }

        packet.Release();
        AnswerSettledWrites(Node.TimeProvider.GetTimestamp());
    }

    /// <summary>Answers, in order, every write whose copies are settled; repeats invalidations that are due. Called from the sweep and on acknowledgements.</summary>
    private void AnswerSettledWrites(long now)
    {
        for (var i = 0; i < _pendingWrites.Count; i++)
        {
            var write = _pendingWrites[i];
            var awaiting = write.Awaiting;
            for (var j = awaiting.Count - 1; j >= 0; j--)
            {
                if (awaiting[j].LeaseEnd <= now)
                {
                    awaiting.RemoveAt(j);
                }
            }

            if (awaiting.Count > 0 || write.NotBefore > now || HasEarlierPendingWrite(i, write.Key))
            {
                if (awaiting.Count > 0 && write.ResendAt <= now)
                {
                    foreach (var holder in awaiting)
                    {
                        SendInvalidate(write.RequestBytes, holder.Server);
                    }

                    write.ResendAt = now + RetransmitTicks(1);
                }

                continue;
            }

            _pendingWrites.RemoveAt(i--);
            _recentWrites!.MarkAnswered(write.Requester, write.RequestId);
            SendResponse(write.RequestBytes, write.Status, write.Answer, write.Requester, fill: false);
            write.Clear();
            _spareWrites.Push(write);
        }

        Volatile.Write(ref _pendingWriteCount, _pendingWrites.Count);
    }

    /// <summary>
    /// At a secondary: whether the answer <paramref name="from"/> a root may be kept as a copy: its
    /// lease is still running, no invalidation came after it was asked for, and <paramref name="from"/>
    /// is the key's root in this node's view. An answer from a root this node has already seen
    /// replaced (a stand-in's, arriving after the home came back) is passed on but not kept: the
    /// flush on that view change is over, and the new root waits only one lease from taking over,
    /// so such a copy could outlive that wait and answer after the new root's writes.
    /// </summary>
    private bool MayKeepCopy(ReadOnlySpan<byte> p, Coordinate from, long now, out long leaseEnd)
    {
        var askedAt = CacheMessage.LeaseStartOf(p);
        leaseEnd = askedAt + _leaseTicks;
        var key = CacheMessage.KeyOf(p);
        return askedAt <= now
            && leaseEnd > now
            && !_invalidated!.MayBeStale(key, askedAt)
            && Node.GetRoot(Node.KeySpace.KeyCoordinateOf(CacheKeys.MemId(key))) == from;
    }

    /// <summary>Gets the wait before try <paramref name="retransmissions"/> + 1: the interval doubled per earlier retry, capped.</summary>
    private long RetransmitTicks(int retransmissions) =>
        Math.Min(_retransmitTicks << Math.Min(retransmissions, 16), _retransmitTicksMax);

    private static bool HasLiveHolders(CacheItem? item, long now)
    {
        if (item?.CopyHolders is { } holders)
        {
            foreach (var holder in holders)
            {
                if (holder.LeaseEnd > now)
                {
                    return true;
                }
            }
        }

        return false;
    }

    private bool HasPendingWrite(ReadOnlySpan<byte> key) => HasEarlierPendingWrite(_pendingWrites.Count, key);

    private bool HasEarlierPendingWrite(int before, ReadOnlySpan<byte> key)
    {
        for (var i = 0; i < before; i++)
        {
            if (_pendingWrites[i].Key.SequenceEqual(key))
            {
                return true;
            }
        }

        return false;
    }
}
