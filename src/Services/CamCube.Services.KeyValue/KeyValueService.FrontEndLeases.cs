using CamCube.Messaging;
using CamCube.Services.KeyValue.Leases;
using CamCube.Services.KeyValue.Messages;
using CamCube.Services.KeyValue.Replication;

namespace CamCube.Services.KeyValue;

/// <summary>
/// Front-end leases: a key's primary that answers a get of another server under its own read lease
/// lets that server answer later gets of the key itself for <see cref="KeyValueServiceOptions.FrontEndLease"/>
/// (never past the primary's lease, so no new primary can write the key meanwhile), counted there
/// from when it sent the get, less the drift margin. Before any write of the key the primary tells
/// each holder to drop its lease (<see cref="DropLease"/>) and waits for the answer, or, when a
/// holder does not answer, until the lease ran out on its own clock: no server answers with the old
/// value once the new one may be read. A holder keeps a fence per dropped key for one lease, so a
/// reply granting a lease on the replaced version that arrives late is not used. A write through
/// another server earns that server a lease on the value it wrote the same way. A get then costs
/// no hop while nothing writes the key: the cache's nearby copies, for a linearizable store.
/// </summary>
public sealed partial class KeyValueService
{
    private readonly Dictionary<Key, FrontEndLease> _frontEndLeases = [];
    private readonly Dictionary<Key, LeaseFence> _leaseFences = [];
    private readonly Dictionary<Key, int> _ownWritesRunning = [];
    private long _frontEndLeaseTicks;

    private bool FrontEndLeasesOn => LeasesOn && _frontEndLeaseTicks > 0;

    private void StartFrontEndLeases() =>
        _frontEndLeaseTicks = (long)(_options.FrontEndLease.TotalSeconds * Node.TimeProvider.TimestampFrequency);

    /// <summary>Answers a get from this server's lease on its key, if one runs; on the node's loop.</summary>
    private bool TryAnswerFromLease(StoreGet get)
    {
        if (_frontEndLeases.Count == 0 || !_frontEndLeases.TryGetValue(get.Key, out var lease))
        {
            return false;
        }

        if (Now >= lease.Until)
        {
            _frontEndLeases.Remove(get.Key);
            return false;
        }

        Statistics.ReadsFromFrontEndLease++;
        if (lease.Value is null)
        {
            get.Outcome.Missing();
        }
        else
        {
            get.Outcome.Found(lease.Version, lease.Value);
        }

        return true;
    }

    /// <summary>Keeps the lease a first answer to a get granted, unless a write of the key has begun since (its fence) or the lease already ran out.</summary>
    private void TakeFrontEndLease(StoreGet get, in ClientReplyView reply)
    {
        if (reply.LeaseMicroseconds <= 0 || !FrontEndLeasesOn)
        {
            return;
        }

        var now = Now;
        var until = FrontEndLeaseEnd(get.StartedAt, reply.LeaseMicroseconds);
        if (until <= now)
        {
            return;
        }

        if (_ownWritesRunning.ContainsKey(get.Key))
        {
            return;
        }

        if (_leaseFences.TryGetValue(get.Key, out var fence))
        {
            if (fence.Until > now && fence.Version >= reply.Version)
            {
                return;
            }

            if (fence.Until <= now)
            {
                _leaseFences.Remove(get.Key);
            }
        }

        _ = KeepFrontEndLease(get.Key, new FrontEndLease(reply.Version, reply.Found ? reply.Value.ToArray() : null, until));
    }

    /// <summary>When a lease of <paramref name="microseconds"/> granted with the answer to a request sent at <paramref name="askedAt"/> ends on this server's clock: counted from the sending, less the drift margin.</summary>
    private long FrontEndLeaseEnd(long askedAt, long microseconds) =>
        askedAt + (long)(microseconds * (Node.TimeProvider.TimestampFrequency / 1e6)) - _leaseDriftTicks;

    /// <summary>Keeps <paramref name="lease"/> on the key, unless the table is full of leases that still run.</summary>
    private bool KeepFrontEndLease(Key key, FrontEndLease lease)
    {
        if (_frontEndLeases.Count >= _options.FrontEndLeasesMax && !_frontEndLeases.ContainsKey(key))
        {
            SweepFrontEndLeases(Now);
            if (_frontEndLeases.Count >= _options.FrontEndLeasesMax)
            {
                return false;
            }
        }

        _frontEndLeases[key] = lease;
        return true;
    }

    private void SweepFrontEndLeases(long now)
    {
        foreach (var (key, lease) in _frontEndLeases)
        {
            if (lease.Until <= now)
            {
                _frontEndLeases.Remove(key);
            }
        }

        foreach (var (key, fence) in _leaseFences)
        {
            if (fence.Until <= now)
            {
                _leaseFences.Remove(key);
            }
        }
    }

    /// <summary>
    /// This server writes the key: it drops its own lease on it and takes none while its writes of
    /// the key run, so the primary may leave it out of the holders it has drop their leases
    /// (<see cref="ClientRequest.LeaseDropped"/>). As each of them ends it fences off, for one lease,
    /// every version older than the one it wrote (every version, when the write failed), so a
    /// lease the primary granted it before the write reaches it either before the write was sent
    /// (dropped here), while it runs (refused) or after it ended (refused, or already run out). A lease
    /// the primary granted with the answer to the last of them to end, on the version written, is
    /// taken unless the fence already covers that version (another of its writes wrote a newer one).
    /// </summary>
    private void BeginOwnWrite(Key key, ClientRequest request)
    {
        _frontEndLeases.Remove(key);
        _ownWritesRunning[key] = _ownWritesRunning.TryGetValue(key, out var running) ? running + 1 : 1;
        request.LeaseDropped = true;
    }

    /// <summary>Ends one of this server's writes of the key that began at <paramref name="askedAt"/>; <paramref name="reply"/> is the primary's answer (null: none).</summary>
    private void EndOwnWrite(Key key, ClientRequest request, ClientReply? reply, long askedAt)
    {
        // Every write that ends raises the fence, so the last to end takes no lease when an earlier one wrote a newer version (its answer came first).
        var written = reply is { Status: ReplyStatus.Served, WriteStatus: WriteStatus.Written } ? reply.Version : 0;
        var fence = FenceOff(key, written > 0 ? written - 1 : long.MaxValue);
        if (_ownWritesRunning.TryGetValue(key, out var running) && running > 1)
        {
            _ownWritesRunning[key] = running - 1;
            return;
        }

        _ownWritesRunning.Remove(key);
        if (written > 0 && reply!.LeaseMicroseconds > 0 && request.Operation != KeyValueOperation.Delete && fence.Version < written)
        {
            var until = FrontEndLeaseEnd(askedAt, reply.LeaseMicroseconds);
            if (until > Now && KeepFrontEndLease(key, new FrontEndLease(written, request.Value, until)))
            {
                Statistics.FrontEndLeasesTakenOnWrites++;
            }
        }
    }

    /// <summary>A primary is about to write the key: the lease on the version it replaces (or an older one) is dropped and fenced off for one lease.</summary>
    private LeaseDropped OnDropLease(DropLease drop)
    {
        if (drop.Key.Length != Key.SizeBytes)
        {
            return new LeaseDropped();
        }

        var key = Key.FromBytes(drop.Key);
        var held = _frontEndLeases.TryGetValue(key, out var lease) && lease.Version <= drop.Version;
        if (held)
        {
            _frontEndLeases.Remove(key);
        }

        _ = FenceOff(key, drop.Version);
        return new LeaseDropped { Held = held };
    }

    /// <summary>Takes no lease on <paramref name="version"/> of the key, or an older one, for one lease from now (a fence still running keeps its higher version).</summary>
    private LeaseFence FenceOff(Key key, long version)
    {
        var now = Now;
        if (_leaseFences.TryGetValue(key, out var fence) && fence.Until > now)
        {
            version = Math.Max(version, fence.Version);
        }

        var fenced = new LeaseFence(version, now + _frontEndLeaseTicks + _leaseDriftTicks);
        _leaseFences[key] = fenced;
        if (_leaseFences.Count >= _options.FrontEndLeasesMax)
        {
            SweepFrontEndLeases(now);
        }

        return fenced;
    }

    /// <summary>Grants <paramref name="asker"/> a front-end lease with <paramref name="reply"/>: a get served under this primary's read lease, or (<paramref name="onWrite"/>) the asker's own write just acknowledged.</summary>
    private void GrantFrontEndLease(KeyLane lane, Coordinate asker, ClientReply reply, bool onWrite = false)
    {
        if (!FrontEndLeasesOn || asker == Node.Self)
        {
            return;
        }

        var now = Now;
        var ticks = Math.Min(_frontEndLeaseTicks, LeaseEnd(lane) - now - _leaseDriftTicks);
        if (ticks <= 0)
        {
            return;
        }

        lane.NoteLeaseHolder(asker, now + ticks);
        reply.LeaseMicroseconds = (long)(ticks * 1e6 / Node.TimeProvider.TimestampFrequency);
        if (onWrite)
        {
            Statistics.FrontEndLeasesGrantedOnWrites++;
        }
        else
        {
            Statistics.FrontEndLeasesGranted++;
        }
    }

    /// <summary>
    /// Before a write of the key: every holder of a front-end lease on it drops it; one that does not
    /// answer within <see cref="KeyValueServiceOptions.ReplicationTimeout"/> is waited out (its lease
    /// ends on its clock no later than on this one's, plus the drift margin).
    /// </summary>
    private async Task DropFrontEndLeasesAsync(Key key, KeyLane lane, long versionReplaced, Coordinate? writer)
    {
        if (writer is { } dropped)
        {
            lane.LeaseHolders?.Remove(dropped);
        }

        var holders = lane.TakeLeaseHolders(Now);
        if (holders is null)
        {
            return;
        }

        var asks = new Task<LeaseDropped>[holders.Count];
        for (var i = 0; i < holders.Count; i++)
        {
            asks[i] = RequestServerAsync<DropLease, LeaseDropped>(holders[i].Key, new DropLease { Key = KeyBytes(key), Version = versionReplaced }, _options.ReplicationTimeout);
        }

        // Until every holder dropped its lease or was waited out, the leases still hold other servers' ballots back (PromiseWait).
        try
        {
            await AwaitDropsAsync(holders, asks).ConfigureAwait(true);
        }
        finally
        {
            lane.LeasesDropped();
        }
    }

    private async Task AwaitDropsAsync(List<KeyValuePair<Coordinate, long>> holders, Task<LeaseDropped>[] asks)
    {
        for (var i = 0; i < holders.Count; i++)
        {
            try
            {
                await asks[i].ConfigureAwait(true);
                Statistics.FrontEndLeasesDropped++;
            }
            catch (RequestFailedException)
            {
                var left = holders[i].Value + _leaseDriftTicks - Now;
                if (left > 0)
                {
                    Statistics.FrontEndLeaseWaits++;
                    await DelayAsync(Node.TimeProvider.GetElapsedTime(0, left)).ConfigureAwait(true);
                }
            }
        }
    }
}
