using System.Diagnostics.CodeAnalysis;
using CamCube.Messaging;
using CamCube.Services.KeyValue.Leases;
using CamCube.Services.KeyValue.Messages;
using CamCube.Services.KeyValue.Replication;

namespace CamCube.Services.KeyValue;

/// <summary>
/// Read leases: with every promise and every answer to an accept, a replica grants the key's
/// primary a lease of <see cref="KeyValueServiceOptions.ReadLease"/> on its own clock and promises
/// no other server a higher ballot until it has run out, so no newer primary can write the key
/// meanwhile. The primary counts the lease from when it sent the request that earned it, less
/// <see cref="KeyValueServiceOptions.LeaseDriftMargin"/>, and serves reads from what it holds while
/// it runs. A server refuses promises for one lease after it starts, so a lease it granted before
/// a crash is honoured without being stored. Time is the node's monotonic timestamp.
/// </summary>
public sealed partial class KeyValueService
{
    /// <summary>How many times a take-over waits for the replicas' leases before it gives up (the caller asks again).</summary>
    private const int LeaseWaitsMax = 3;

    /// <summary>How many granted leases are kept before the expired ones are swept out (the bound doubles with the live ones).</summary>
    private const int LeaseSweepCountMin = 1024;

    private readonly Dictionary<Key, GrantedLease> _leasesGranted = [];
    private int _leaseSweepAt = LeaseSweepCountMin;
    private long _startedAt;
    private long _leaseTicks;
    private long _leaseDriftTicks;

    private bool LeasesOn => _leaseTicks > 0;

    private long Now => Node.TimeProvider.GetTimestamp();

    private void StartLeaseClock()
    {
        var frequency = Node.TimeProvider.TimestampFrequency;
        _leaseTicks = (long)(_options.ReadLease.TotalSeconds * frequency);
        _leaseDriftTicks = (long)(_options.LeaseDriftMargin.TotalSeconds * frequency);
        _renewalIdleTicks = (long)(_options.LeaseRenewalIdleTime.TotalSeconds * frequency);
        _startedAt = Now;
    }

    /// <summary>How long this server must still refuse to promise a higher ballot for <paramref name="key"/> to <paramref name="from"/> (null: a server it does not know): while a lease it granted another server runs, after its own start, and, to any server but itself, while a front-end lease it granted as the key's primary may run; zero when it may. A wait that only the holder's renewals cause is reported to the holder.</summary>
    private TimeSpan PromiseWait(Key key, Coordinate? from)
    {
        if (!LeasesOn)
        {
            return TimeSpan.Zero;
        }

        var now = Now;
        var until = _startedAt + _leaseTicks;
        if (_leasesGranted.TryGetValue(key, out var lease) && (from is null || lease.Holder != from))
        {
            var end = GrantedLeaseEnd(lease);
            if (end > now && lease.Until <= now && lease.Holder is { } holder)
            {
                // Only the holder's renewals keep it: the holder hears that another server wants the key.
                NoteContested(holder, key);
            }

            until = Math.Max(until, end);
        }

        if (from != Node.Self && _lanes.TryGetValue(key, out var lane) && lane.FrontEndLeasesEnd() is var frontEnd and > 0)
        {
            // Front-end leases this server granted as the key's primary run on their holders until then at
            // the latest, and no other server may write the key before. The replicas that granted this
            // server its lease, which bounds them, may not be in the other's set (the views changed it);
            // this server is. (Once it promises, it answers nothing under its own lease.)
            until = Math.Max(until, frontEnd + _leaseDriftTicks);
        }

        return until > now ? Node.TimeProvider.GetElapsedTime(now, until) : TimeSpan.Zero;
    }

    /// <summary>Grants (or renews) <paramref name="holder"/>'s lease on the key from now, on this server's clock.</summary>
    private void GrantLease(Key key, Coordinate? holder)
    {
        if (LeasesOn)
        {
            _leasesGranted[key] = new GrantedLease(holder, Now + _leaseTicks);
            if (_leasesGranted.Count >= _leaseSweepAt)
            {
                SweepExpiredLeases();
            }
        }
    }

    /// <summary>Forgets the leases that ran out (they hold nothing back), so the table holds about the keys written in the last lease, not every key this server ever accepted.</summary>
    private void SweepExpiredLeases()
    {
        var now = Now;
        foreach (var (key, lease) in _leasesGranted)
        {
            if (GrantedLeaseEnd(lease) <= now)
            {
                _leasesGranted.Remove(key);
            }
        }

        _leaseSweepAt = Math.Max(LeaseSweepCountMin, 2 * _leasesGranted.Count);
        ForgetEndedRuns(now);
    }

    /// <summary>Takes the lease every other replica granted by answering a round sent at <paramref name="sentAt"/>.</summary>
    private void TakeLease(KeyLane lane, long sentAt)
    {
        if (LeasesOn)
        {
            lane.LeaseUntil = sentAt + _leaseTicks - _leaseDriftTicks;
            NoteRenewalsUsed(lane, Now);
        }
    }

    /// <summary>Whether the primary may answer a read of the key from what it holds: its lease runs (by itself, or renewed in bulk) and it promised no newer primary itself.</summary>
    private bool HoldsLease(Key key, KeyLane lane) => HoldsLease(key, lane, out _);

    /// <summary>As <see cref="HoldsLease(Key, KeyLane)"/>; <paramref name="renewed"/> says whether only renewals in bulk keep the lease.</summary>
    private bool HoldsLease(Key key, KeyLane lane, out bool renewed)
    {
        renewed = false;
        if (!LeasesOn || lane.Ballot == 0 || PromisedBallot(key) > lane.Ballot)
        {
            return false;
        }

        var now = Now;
        if (now < lane.LeaseUntil)
        {
            return true;
        }

        if (now >= LeaseEnd(lane))
        {
            return false;
        }

        NoteRenewalsUsed(lane, now);
        renewed = true;
        return true;
    }

    /// <summary>Counts a read answered under the primary's lease.</summary>
    private void CountReadUnderLease(bool renewed)
    {
        Statistics.ReadsUnderLease++;
        if (renewed)
        {
            Statistics.ReadsUnderRenewedLease++;
        }
    }

    /// <summary>
    /// Answers a get in the upcall that brought it (no later turn of the loop, no task) when the
    /// primary would answer it at once anyway: the key's lane is idle, this server holds the key
    /// under its ballot with the current replica set and keeps its newest value, and its read lease
    /// runs. Anything else goes to <see cref="ServeAsync"/>, which decides as always.
    /// </summary>
    private bool TryServeUnderLease(ClientRequest request, MessageContext context, [MaybeNullWhen(false)] out ClientReply reply)
    {
        reply = null;
        if (request.Operation != KeyValueOperation.Get || request.Key.Length != Key.SizeBytes || !HasMajority)
        {
            return false;
        }

        var key = Key.FromBytes(request.Key);
        if (!_lanes.TryGetValue(key, out var lane) || !lane.IsIdle || !lane.IsHeldKnown || lane.Ballot == 0)
        {
            return false;
        }

        var set = CurrentSet(key, lane);
        if (!ReferenceEquals(set, lane.Set) || set[0] != Node.Self || !HoldsLease(key, lane, out var renewed))
        {
            return false;
        }

        CountReadUnderLease(renewed);
        Statistics.ReadsAnsweredAtOnce++;
        reply = lane.Held is { IsDeleted: false } held ? new ClientReply { Found = true, Version = held.Version, Value = held.Value! } : new ClientReply();
        GrantFrontEndLease(lane, context.Source, reply);
        return true;
    }

    private static TimeSpan LongestLeaseWait(Promise[] promises)
    {
        long microseconds = 0;
        foreach (var promise in promises)
        {
            microseconds = Math.Max(microseconds, promise.Promised ? 0 : promise.LeaseWaitMicroseconds);
        }

        return TimeSpan.FromMicroseconds(microseconds);
    }
}
