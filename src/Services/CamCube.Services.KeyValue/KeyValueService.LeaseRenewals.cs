using CamCube.Messaging;
using CamCube.Services.KeyValue.Leases;
using CamCube.Services.KeyValue.Messages;
using CamCube.Services.KeyValue.Replication;

namespace CamCube.Services.KeyValue;

/// <summary>
/// Read leases renewed in bulk: a key's lease lapses a <see cref="KeyValueServiceOptions.ReadLease"/>
/// after its last write or confirm, so a key read long after it was written would cost a round with
/// its replicas. Instead the primary renews, with one message to each replica of its keys every
/// third of a lease, every lease that replica granted it that had not run out when these renewals
/// began: a run of renewals (<see cref="GrantedRenewal"/>). While the run lasts the replica refuses
/// other servers' ballots for those keys, and the primary keeps answering their reads alone.
/// <para>
/// A newer primary must not wait on a run for ever: a replica that refuses a ballot only because of
/// a run tells the run's primary with its next answer, and the primary gives the key up (it deposes
/// its lane; the replica then holds the lease only to the run's present end, which bounds every
/// front-end lease the primary granted) unless it is still the key's primary in its own view.
/// </para>
/// </summary>
public sealed partial class KeyValueService
{
    /// <summary>How many keys one renewal gives up, or one answer reports, when messages must fit a packet.</summary>
    private const int BestEffortRenewalKeysMax = 32;

    /// <summary>How many on the reliable transport.</summary>
    private const int ReliableRenewalKeysMax = 4096;

    /// <summary>How many contested keys a replica keeps for one primary until its next renewal.</summary>
    private const int ContestedKeysMax = 4096;

    private static long s_runsBegun;

    private readonly Dictionary<Coordinate, GrantedRenewal> _renewalsGranted = [];
    private readonly Dictionary<Coordinate, HashSet<Key>> _contested = [];
    private readonly Dictionary<Coordinate, HeldRenewal> _renewalsHeld = [];
    private ITimer? _renewalTimer;
    private long _renewalIdleTicks;

    private bool RenewalsOn => LeasesOn && _renewalIdleTicks > 0;

    private TimeSpan RenewalPeriod => _options.ReadLease / 3;

    private int RenewalKeysMax => _options.Delivery == MessageDelivery.Reliable ? ReliableRenewalKeysMax : BestEffortRenewalKeysMax;

    /// <summary>When a lease this replica granted ends: its own end, or, while the holder's run of renewals that began before then lasts, the run's.</summary>
    private long GrantedLeaseEnd(GrantedLease lease) =>
        lease.Renewable && lease.Holder is { } holder && _renewalsGranted.TryGetValue(holder, out var run) && lease.Until >= run.Start
            ? Math.Max(lease.Until, run.Until)
            : lease.Until;

    /// <summary>Renews the sender's run (or begins a new one), after giving up the keys it lists; answers with the keys others wanted meanwhile.</summary>
    internal LeasesRenewed OnRenewLeases(RenewLeases renew, Coordinate? from)
    {
        var renewed = new LeasesRenewed();
        if (!LeasesOn || from is not { } holder)
        {
            return renewed;
        }

        ReleaseKeys(renew, holder);
        var now = Now;
        if (now < _startedAt + _leaseTicks)
        {
            // No run begins during this server's start lease. A primary counts a new run as covering
            // every key whose lease it still counts, taking the lease to still run here; after a
            // restart this life knows none its earlier life granted, and holds them back only with
            // the start lease. A run begun after it can only be told after every such lease ended.
            return renewed;
        }

        var run = _renewalsGranted.TryGetValue(holder, out var running) && running.Until > now
            ? running with { Until = now + _leaseTicks }
            : new GrantedRenewal(NewRunId(), now, now + _leaseTicks);
        _renewalsGranted[holder] = run;
        renewed.Renewal = run.Id;
        Statistics.LeaseRenewalsGranted++;
        if (_contested.TryGetValue(holder, out var contested))
        {
            foreach (var key in contested)
            {
                if (renewed.ContestedKeys.Count == RenewalKeysMax)
                {
                    break;
                }

                renewed.ContestedKeys.Add(KeyBytes(key));
            }

            _contested.Remove(holder);
        }

        return renewed;
    }

    /// <summary>Gives up the leases the holder listed, each at the run's present end, unless granted under a ballot above the one it gave.</summary>
    private void ReleaseKeys(RenewLeases renew, Coordinate holder)
    {
        for (var i = 0; i < renew.ReleasedKeys.Count && i < renew.ReleasedBallots.Count; i++)
        {
            if (renew.ReleasedKeys[i].Length != Key.SizeBytes)
            {
                continue;
            }

            var key = Key.FromBytes(renew.ReleasedKeys[i]);
            if (_leasesGranted.TryGetValue(key, out var lease) && lease.Holder == holder && lease.Renewable && PromisedBallot(key) <= renew.ReleasedBallots[i])
            {
                _leasesGranted[key] = new GrantedLease(holder, GrantedLeaseEnd(lease), Renewable: false);
                Statistics.LeasesReleased++;
            }
        }
    }

    /// <summary>Forgets the runs that ended (a primary that died, or stopped renewing) and the keys contested under them.</summary>
    private void ForgetEndedRuns(long now)
    {
        foreach (var (holder, run) in _renewalsGranted)
        {
            if (run.Until <= now)
            {
                _renewalsGranted.Remove(holder);
                _contested.Remove(holder);
            }
        }
    }

    /// <summary>Notes that another server wanted a key the holder's run alone keeps leased: the holder hears of it with its next renewal.</summary>
    private void NoteContested(Coordinate holder, Key key)
    {
        if (!_contested.TryGetValue(holder, out var keys))
        {
            keys = [];
            _contested.Add(holder, keys);
        }

        if (keys.Count < ContestedKeysMax)
        {
            keys.Add(key);
        }
    }

    /// <summary>
    /// A new run's id: never one an earlier life of this server gave (its start time and a count
    /// of the process's runs are mixed in), or a primary would take a restarted replica, which
    /// lost its leases, for one still renewing them.
    /// </summary>
    private long NewRunId()
    {
        long id;
        do
        {
            id = unchecked((Node.Random.NextInt64() * 31) ^ (_startedAt * 1_000_003) ^ Interlocked.Increment(ref s_runsBegun));
        }
        while (id == 0);
        return id;
    }

    /// <summary>When the lane's read lease ends: its own end, or later while every other replica's run renews it.</summary>
    private long LeaseEnd(KeyLane lane)
    {
        var end = lane.LeaseUntil;
        if (_renewalsHeld.Count == 0 || end == 0)
        {
            return end;
        }

        var renewed = long.MaxValue;
        foreach (var server in lane.Set)
        {
            if (server == Node.Self)
            {
                continue;
            }

            if (!_renewalsHeld.TryGetValue(server, out var renewal) || !renewal.Covers(end))
            {
                return end;
            }

            renewed = Math.Min(renewed, renewal.Until);
        }

        return renewed == long.MaxValue ? end : Math.Max(end, renewed);
    }

    /// <summary>Notes that the lane's lease was taken or used with its other replicas, and begins renewing with those not renewed yet.</summary>
    private void NoteRenewalsUsed(KeyLane lane, long now)
    {
        if (!RenewalsOn)
        {
            return;
        }

        foreach (var server in lane.Set)
        {
            if (server == Node.Self)
            {
                continue;
            }

            if (!_renewalsHeld.TryGetValue(server, out var renewal))
            {
                renewal = new HeldRenewal();
                _renewalsHeld.Add(server, renewal);
                _renewalTimer ??= Node.CreateTimer(RenewDue, RenewalPeriod, RenewalPeriod);
                Renew(server, renewal);
            }

            renewal.LastUsed = now;
        }
    }

    /// <summary>Every third of a lease: renews with every replica whose run was used lately, and forgets the others.</summary>
    private void RenewDue()
    {
        var now = Now;
        foreach (var (server, renewal) in _renewalsHeld)
        {
            if (now - renewal.LastUsed > _renewalIdleTicks && !ReleasesReachItsSets(server, renewal))
            {
                _renewalsHeld.Remove(server);
                continue;
            }

            Renew(server, renewal);
        }

        if (_renewalsHeld.Count == 0)
        {
            StopRenewals();
        }
    }

    /// <summary>
    /// Whether a key waits to be given up to <paramref name="server"/> while the server is still in
    /// the key's replica set. Once it is in none (it died, or left them), nothing is left to give up
    /// there: a newer primary does not ask it, and what it granted ends with its run, a lease after
    /// the last renewal it answered.
    /// </summary>
    private bool ReleasesReachItsSets(Coordinate server, HeldRenewal renewal)
    {
        foreach (var key in renewal.ReleasedKeys)
        {
            if (Array.IndexOf(ReplicaSet(Node.KeySpace.KeyCoordinateOf(Key.FromBytes(key))), server) >= 0)
            {
                return true;
            }
        }

        return false;
    }

    private void Renew(Coordinate server, HeldRenewal renewal)
    {
        // Under a partition's minority this server serves nothing; its runs lapse.
        if (!renewal.Asking && HasMajority)
        {
            _ = RenewAsync(server, renewal);
        }
    }

    private async Task RenewAsync(Coordinate server, HeldRenewal renewal)
    {
        renewal.Asking = true;
        var request = new RenewLeases();
        renewal.TakeReleases(request.ReleasedKeys, request.ReleasedBallots, RenewalKeysMax);
        var sentAt = Now;
        try
        {
            Statistics.LeaseRenewalsSent++;
            var renewed = await RequestServerAsync<RenewLeases, LeasesRenewed>(server, request, _options.ReplicationTimeout).ConfigureAwait(true);
            renewal.Renewed(renewed.Renewal, sentAt + _leaseTicks - _leaseDriftTicks, Now);
            GiveUpContested(renewal, renewed.ContestedKeys);
        }
        catch (RequestFailedException)
        {
            // Asked again at the next period (a request may fail at once, in this turn: no retry here).
            renewal.PutBack(request.ReleasedKeys, request.ReleasedBallots);
            return;
        }
        finally
        {
            renewal.Asking = false;
        }

        if (renewal.HasReleases && _renewalsHeld.TryGetValue(server, out var current) && ReferenceEquals(current, renewal))
        {
            // More keys to give up than one renewal carries, or keys the answer contested: at once.
            Renew(server, renewal);
        }
    }

    /// <summary>
    /// Gives up each contested key this server does not serve now as its primary: its lane (when idle)
    /// is deposed, so it serves the key again only after a round under a higher ballot than the one
    /// it gives with the key, and the replica holds the lease no longer than the run's present end.
    /// </summary>
    private void GiveUpContested(HeldRenewal renewal, List<byte[]> contested)
    {
        foreach (var bytes in contested)
        {
            if (bytes.Length != Key.SizeBytes)
            {
                continue;
            }

            var key = Key.FromBytes(bytes);
            var ballot = PromisedBallot(key);
            if (_lanes.TryGetValue(key, out var lane))
            {
                if (!lane.IsIdle || IsServingPrimary(key, lane))
                {
                    // Busy: the next answer tells again. Still the primary: the other server waits until the views agree.
                    continue;
                }

                ballot = Math.Max(ballot, lane.Ballot);
                lane.Depose();
            }

            renewal.Release(bytes, ballot);
        }
    }

    private bool IsServingPrimary(Key key, KeyLane lane) =>
        lane.Ballot != 0 && PromisedBallot(key) <= lane.Ballot && HasMajority && CurrentSet(key, lane)[0] == Node.Self;

    private void StopRenewals()
    {
        _renewalTimer?.Dispose();
        _renewalTimer = null;
    }
}
