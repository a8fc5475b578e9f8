using CamCube.Messaging;
using CamCube.Services.KeyValue.Messages;
using CamCube.Services.KeyValue.Replication;
using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue;

/// <summary>
/// The key's primary (camcubeos 5.2): the first server of its replica set. It takes the key over
/// under a ballot higher than any before (so it continues from the newest write of the surviving
/// replicas and fences out a deposed primary), decides conditional writes, gives versions, and
/// acknowledges only when every live replica kept the write. A read first checks with the replicas
/// that no newer primary took the key over, so reads stay linearizable across fail-over.
/// </summary>
public sealed partial class KeyValueService
{
    private readonly Dictionary<Key, KeyLane> _lanes = [];

    private bool HasMajority => !_options.RequireMajority || Node.Reachability.ReachableCount * 2 > Node.Shape.ServerCount;

    internal async Task<ClientReply> ServeAsync(ClientRequest request, Coordinate asker)
    {
        if (request.Key.Length != Key.SizeBytes)
        {
            return new ClientReply { Status = ReplyStatus.Rejected, Reason = $"A key is {Key.SizeBytes} bytes, not {request.Key.Length}." };
        }

        if (request.Value.Length > ValueBytesMax)
        {
            return new ClientReply { Status = ReplyStatus.Rejected, Reason = $"The value is {request.Value.Length} bytes; the store takes at most {ValueBytesMax}." };
        }

        if (request.Condition == WriteConditionKind.IfVersion && request.ConditionVersion <= 0)
        {
            return new ClientReply { Status = ReplyStatus.Rejected, Reason = $"A compare-and-swap needs a positive version, not {request.ConditionVersion}." };
        }

        var key = Key.FromBytes(request.Key);
        if (!_lanes.TryGetValue(key, out var lane))
        {
            lane = new KeyLane { CanHold = _lanes.Count < _options.HeldValuesMax };
            _lanes.Add(key, lane);
        }

        if (request is { Operation: KeyValueOperation.Put, Condition: WriteConditionKind.Always } && !lane.IsIdle)
        {
            return await SetTogetherAsync(key, lane, new WaitingSet(request, asker)).ConfigureAwait(true);
        }

        await lane.EnterAsync().ConfigureAwait(true);
        try
        {
            return await ServeInTurnAsync(key, lane, request, asker, together: null).ConfigureAwait(true);
        }
        finally
        {
            lane.Exit();
        }
    }

    /// <summary>Serves <paramref name="request"/> of <paramref name="asker"/> in the key's turn; <paramref name="together"/>: unconditional sets that waited for the turn with it, the first of them (null: it waited alone).</summary>
    private async Task<ClientReply> ServeInTurnAsync(Key key, KeyLane lane, ClientRequest request, Coordinate asker, List<WaitingSet>? together)
    {
        var set = CurrentSet(key, lane);
        if (set[0] != Node.Self)
        {
            return new ClientReply { Status = ReplyStatus.NotPrimary };
        }

        // camcubeos 5.2 under a partition: only the side that reaches most servers serves.
        if (!HasMajority)
        {
            lane.Depose();
            return Unavailable("reaches no majority of the servers (it is on a partition's minority side)");
        }

        if (together is null && lane.Ballot == 0 && CanWriteFirstInOneRound(key, lane, request)
            && await WriteFirstAsync(key, lane, set, request, asker).ConfigureAwait(true) is { } first)
        {
            return first;
        }

        if ((lane.Ballot == 0 || !lane.Set.AsSpan().SequenceEqual(set)) && !await HoldKeyAsync(key, lane, set).ConfigureAwait(true))
        {
            return Unavailable("could not take the key over (a replica refused, did not answer in time, or holds it back with a lease)");
        }

        var held = HeldValue(key, lane);
        if (PromisedBallot(key) > lane.Ballot || (held is not null && Versions.BallotOf(held.Version) > lane.Ballot))
        {
            // A newer primary reached this server (it promised its ballot, or kept its write as a replica or by a catch-up): take the key back above it.
            if (!await TakeOverAsync(key, lane, set).ConfigureAwait(true))
            {
                return Unavailable("could not take the key back from a newer primary");
            }

            held = HeldValue(key, lane);
        }
        if (together is not null)
        {
            return await WriteTogetherAsync(key, lane, set, held, together).ConfigureAwait(true);
        }

        if (request.Operation == KeyValueOperation.Get)
        {
            if (!await CheckBallotAsync(key, lane).ConfigureAwait(true))
            {
                return Unavailable("could not confirm with the key's replicas that it is still its primary");
            }

            var read = held is { IsDeleted: false } ? new ClientReply { Found = true, Version = held.Version, Value = held.Value! } : new ClientReply();
            if (HoldsLease(key, lane))
            {
                GrantFrontEndLease(lane, asker, read);
            }

            return read;
        }

        if (WrittenBefore(key, request.WriteId, held) is { } writtenAt)
        {
            // Asked again after its answer was lost: the write took effect (here, or at a primary before this one).
            Statistics.WritesAnsweredAgain++;
            return new ClientReply { WriteStatus = WriteStatus.Written, Version = writtenAt };
        }

        var isDelete = request.Operation == KeyValueOperation.Delete;
        var condition = request.Condition == WriteConditionKind.IfVersion
            ? WriteCondition.IfVersion(request.ConditionVersion)
            : ConditionOf(request.Condition);
        var outcome = PrimaryDecision.Decide(condition, held, isDelete);
        if (!outcome.Succeeded)
        {
            // A refused write reveals what the key holds, as a read does: check the ballot first.
            return await CheckBallotAsync(key, lane).ConfigureAwait(true)
                ? new ClientReply { WriteStatus = outcome.Status, Version = outcome.Version }
                : Unavailable("could not confirm with the key's replicas that it is still its primary");
        }

        var version = Versions.Next(held?.Version ?? 0, lane.Ballot);
        if (version == 0)
        {
            lane.Depose();
            return Unavailable("used up the versions of its ballot (it takes the key over again)");
        }

        if (!Commits.HasRoom)
        {
            return CommitQueueFull();
        }

        var write = new StoredValue(version, isDelete ? null : request.Value, request.WriteId);
        return await ReplicateWriteAsync(key, lane, set, held?.Version ?? 0, write, request.LeaseDropped ? asker : null).ConfigureAwait(true)
            ?? Acknowledge(key, lane, set, request, asker, write);
    }

    /// <summary>Not served for now: the caller asks again until its time is up, and a call that runs out of it tells why (<paramref name="why"/>, after this server's coordinate).</summary>
    private ClientReply Unavailable(string why) => new() { Status = ReplyStatus.Unavailable, Reason = $"{Node.Self} {why}" };

    /// <summary>Back-pressure: the disk is behind; the caller asks again until its time is up.</summary>
    private ClientReply CommitQueueFull() =>
        new() { Status = ReplyStatus.Unavailable, Reason = $"The commit queue at {Node.Self} is full ({_options.CommitQueueWritesMax} writes)." };

    /// <summary>
    /// Has every live replica of <paramref name="key"/> keep <paramref name="write"/> (this server
    /// included), which replaces <paramref name="versionReplaced"/>; null once they all did (the lane
    /// then holds a read lease from when the accepts left), else the reply for its caller.
    /// </summary>
    private async Task<ClientReply?> ReplicateWriteAsync(Key key, KeyLane lane, Coordinate[] set, long versionReplaced, StoredValue write, Coordinate? leaseDroppedBy, List<ulong>? superseded = null)
    {
        // No server may answer with the replaced value once the new one can be read anywhere. The
        // holders drop their leases while the accepts travel: until the write is answered only this
        // server could answer with the new value, and it answers no read of the key while the write
        // holds the lane; a primary that takes the key over meanwhile serves only once this one's
        // lease, and with it every front-end lease it granted, ran out.
        var leasesDropped = DropFrontEndLeasesAsync(key, lane, versionReplaced, leaseDroppedBy);
        var sentAt = Now;

        // This server's own copy is committed while the accepts travel: one disk write's time per set, not two in a row.
        // The accepts go first, so that a commit on the loop at the turn's end waits for the disk after they left.
        var ballot = lane.Ballot;
        var replicated = ReplicateAsync(key, lane, write, set, versionsHeld: null, superseded: superseded);
        var keptHere = KeepAsync(key, write);
        await leasesDropped.ConfigureAwait(true);
        var round = await replicated.ConfigureAwait(true);
        var committedHere = await CommittedAsync(keptHere).ConfigureAwait(true);
        if (round == RoundResult.Refused && committedHere)
        {
            round = await SettleRefusedAsync(key, lane, set, write, superseded).ConfigureAwait(true);
        }
        else if (round == RoundResult.Unknown && committedHere)
        {
            round = await FinishOnNewSetAsync(key, lane, set, write, ballot, superseded).ConfigureAwait(true);
        }

        switch (round)
        {
            case RoundResult.Refused:
                // Fenced by a newer primary before any replica kept it: the caller asks again, and this server takes the key back first.
                return Unavailable("was fenced by a newer primary before any replica kept the write");
            case RoundResult.Unknown:
                Log.WriteUndecided(Node.Logger, key, Node.Self, lane.UndecidedBecause ?? "a replica did not keep it");
                return new ClientReply { Status = ReplyStatus.Indeterminate };
        }

        if (!committedHere)
        {
            lane.Depose();
            Log.WriteUndecided(Node.Logger, key, Node.Self, $"this server's own commit of it failed: {CommitFailure(keptHere)}");
            return new ClientReply { Status = ReplyStatus.Indeterminate };
        }

        TakeLease(lane, sentAt);
        return null;
    }

    /// <summary>Holds the write every live replica kept as the key's newest, notes its id, and answers it (with a front-end lease for a writer that dropped its own).</summary>
    private ClientReply Acknowledge(Key key, KeyLane lane, Coordinate[] set, ClientRequest request, Coordinate asker, StoredValue write)
    {
        lane.Hold(write);
        _recentWrites.Note(write.WriteId, key, write.Version, Now);
        Statistics.WritesAcknowledged++;
        if (write.IsDeleted)
        {
            SchedulePurge(key, write.Version, set);
        }

        var written = new ClientReply { WriteStatus = WriteStatus.Written, Version = write.Version };
        if (!write.IsDeleted && request.LeaseDropped && HoldsLease(key, lane))
        {
            // The writer dropped its lease for this write and takes one on the value it wrote.
            GrantFrontEndLease(lane, asker, written, onWrite: true);
        }

        return written;
    }

    /// <summary>The version at which the write <paramref name="writeId"/> took effect, if this server knows: the key's newest value, or one it noted.</summary>
    private long? WrittenBefore(Key key, ulong writeId, StoredValue? held) =>
        writeId == 0 ? null
        : held?.WriteId == writeId ? held.Version
        : _recentWrites.TryGet(writeId, key, out var version) ? version
        : null;

    /// <summary>
    /// Takes the key over under a new ballot: every other live replica promises to refuse lower
    /// ballots and answers with its newest write; the newest of all is kept here and copied to the
    /// replicas that lack it, so the key continues from the highest version that survived.
    /// </summary>
    /// <param name="key">The key.</param>
    /// <param name="lane">The key's lane here.</param>
    /// <param name="set">The key's replica set, this server first.</param>
    /// <param name="settling">A write of this server's that every replica refused, settled by this take-over.</param>
    /// <param name="superseded">The ids of the sets <paramref name="settling"/> superseded in its round: copied with it if it is adopted.</param>
    private async Task<bool> TakeOverAsync(Key key, KeyLane lane, Coordinate[] set, StoredValue? settling = null, List<ulong>? superseded = null)
    {
        lane.Depose();
        for (var waits = 0; ; waits++)
        {
            // A lease this server granted (or its own start) holds it back as it holds back any replica.
            var wait = PromiseWait(key, Node.Self);
            Promise[]? promises = null;
            long ballot = 0;
            var sentAt = Now;
            if (wait == TimeSpan.Zero)
            {
                (ballot, promises) = await PrepareAsync(key, lane, set).ConfigureAwait(true);
                if (promises is null)
                {
                    return false;
                }

                var all = AllPromised(lane, promises);
                wait = all ? TimeSpan.Zero : LongestLeaseWait(promises);
                if (!all && wait == TimeSpan.Zero)
                {
                    return false;
                }
            }

            if (wait > TimeSpan.Zero)
            {
                // camcubeos 5.2 fail-over, delayed by at most one read lease: the old primary may still answer reads until it ends.
                Statistics.LeaseWaits++;
                if (waits == LeaseWaitsMax)
                {
                    return false;
                }

                await DelayAsync(wait).ConfigureAwait(true);
                if (!ReplicaSet(Node.KeySpace.KeyCoordinateOf(key)).AsSpan().SequenceEqual(set))
                {
                    return false;
                }

                continue;
            }

            if (!await AdoptNewestAsync(key, lane, set, ballot, promises!, settling, superseded).ConfigureAwait(true))
            {
                return false;
            }

            TakeLease(lane, sentAt);
            return true;
        }
    }

    /// <summary>
    /// Every other replica refused the write (a newer ballot fenced this primary) but this server
    /// committed it, so a later primary could adopt it from here: the key is taken back at once.
    /// Either the write is then the key's newest, adopted and copied to every replica (kept), or a
    /// newer one replaced it here too and it happened nowhere (refused: the caller asks again).
    /// </summary>
    private async Task<RoundResult> SettleRefusedAsync(Key key, KeyLane lane, Coordinate[] set, StoredValue write, List<ulong>? superseded)
    {
        Statistics.RefusedWritesSettled++;
        if (!await TakeOverAsync(key, lane, set, write, superseded).ConfigureAwait(true))
        {
            return RoundResult.Unknown;
        }

        return HeldValue(key, lane)?.Version == write.Version ? RoundResult.Kept : RoundResult.Refused;
    }

    /// <summary>Asks every other replica to promise a ballot above every one seen; null promises when a request failed.</summary>
    private async Task<(long Ballot, Promise[]? Promises)> PrepareAsync(Key key, KeyLane lane, Coordinate[] set)
    {
        var held = _storage.Read(key);
        var ballot = Ballots.Above(Math.Max(Math.Max(PromisedBallot(key), lane.HighestBallotSeen), Versions.BallotOf(held?.Version ?? 0)));
        var promisedHere = PromiseDurably(key, ballot);
        var others = Others(set);
        var asks = new Task<Promise>[others.Length];
        for (var i = 0; i < others.Length; i++)
        {
            asks[i] = RequestServerAsync<Prepare, Promise>(others[i], new Prepare { Key = KeyBytes(key), Ballot = ballot, Version = held?.Version ?? 0 }, _options.ReplicationTimeout);
        }

        var promises = await AllAsync(asks).ConfigureAwait(true);
        return (ballot, await CommittedAsync(promisedHere).ConfigureAwait(true) ? promises : null);
    }

    /// <summary>Keeps the newest write of every promise and copies it to the replicas that lack it; then the key is this server's under <paramref name="ballot"/>.</summary>
    private async Task<bool> AdoptNewestAsync(Key key, KeyLane lane, Coordinate[] set, long ballot, Promise[] promises, StoredValue? settling, List<ulong>? superseded)
    {
        var adopted = new List<Task<bool>>();
        foreach (var promise in promises)
        {
            NoteRecentWriteIds(key, promise.RecentWriteIds, promise.RecentWriteVersions);
            if (promise.HasValue)
            {
                adopted.Add(KeepAsync(key, new StoredValue(promise.Version, promise.Deleted ? null : promise.Value, promise.WriteId)));
                if (!Ballots.IsFirstWrite(promise.Version))
                {
                    // A first write's copy took effect only if it is adopted as the newest (below).
                    _recentWrites.Note(promise.WriteId, key, promise.Version, Now);
                }
            }
        }

        await Task.WhenAll(adopted).ConfigureAwait(true);

        var newest = _storage.Read(key);
        if (newest is not null)
        {
            // The newest may be this server's own copy of a write no replica acknowledged (a first write
            // sent with a take-over that failed): adopted, it took effect, and its writer, asking again
            // under its id, is answered with this version, not written a second time.
            _recentWrites.Note(newest.WriteId, key, newest.Version, Now);
        }

        // A first write adopted here took effect, but its replicas noted it only as tentative: it goes
        // to every one of them, so that each notes it for good and answers its writer asking again.
        var toEveryReplica = newest is not null && Ballots.IsFirstWrite(newest.Version);
        var versionsHeld = new long[promises.Length];
        for (var i = 0; i < promises.Length; i++)
        {
            versionsHeld[i] = toEveryReplica ? 0 : promises[i].Version;
        }

        // A refused round adopted here carries the ids of the sets it superseded, as its own accept did.
        var carried = settling is not null && newest?.Version == settling.Version && newest.WriteId == settling.WriteId ? superseded : null;
        if (newest is not null && await ReplicateAsync(key, lane, newest, set, versionsHeld, ballot, carried).ConfigureAwait(true) != RoundResult.Kept)
        {
            return false;
        }

        lane.Ballot = ballot;
        lane.Set = set;
        lane.Hold(newest);
        Statistics.TakeOvers++;
        return true;
    }

    /// <summary>Whether the primary's ballot still stands for a read: at once while its lease runs, else by asking the other replicas (which renews the lease).</summary>
    private async Task<bool> CheckBallotAsync(Key key, KeyLane lane)
    {
        if (HoldsLease(key, lane, out var renewed))
        {
            CountReadUnderLease(renewed);
            return true;
        }

        Statistics.ReadConfirms++;
        var sentAt = Now;
        if (!await ConfirmAsync(key, lane).ConfigureAwait(true))
        {
            return false;
        }

        TakeLease(lane, sentAt);
        return true;
    }

    /// <summary>The key's newest value at this primary: kept in memory while it holds the key, else read from the storage (and kept).</summary>
    private StoredValue? HeldValue(Key key, KeyLane lane)
    {
        if (lane.IsHeldKnown)
        {
            return lane.Held;
        }

        var held = _storage.Read(key);
        lane.Hold(held);
        return held;
    }

    /// <summary>Forgets the value a lane of this server keeps for the key: the storage took a write from elsewhere.</summary>
    private void ForgetHeld(Key key)
    {
        if (_lanes.TryGetValue(key, out var lane))
        {
            lane.Forget();
        }
    }

    /// <summary>Checks with every other replica that the primary's ballot still stands: no newer primary took the key over.</summary>
    private async Task<bool> ConfirmAsync(Key key, KeyLane lane)
    {
        var others = Others(lane.Set);
        var asks = new Task<Accepted>[others.Length];
        for (var i = 0; i < others.Length; i++)
        {
            asks[i] = RequestServerAsync<Accept, Accepted>(others[i], new Accept { Key = KeyBytes(key), Ballot = lane.Ballot, CheckOnly = true }, _options.ReplicationTimeout);
        }

        return await AllAcceptedAsync(key, lane, asks).ConfigureAwait(true) == RoundResult.Kept;
    }

    /// <summary>Sends a write to the other replicas (those whose <paramref name="versionsHeld"/> is older, when given) and waits for every one to keep it.</summary>
    private async Task<RoundResult> ReplicateAsync(Key key, KeyLane lane, StoredValue write, Coordinate[] set, long[]? versionsHeld, long ballot = 0, List<ulong>? superseded = null)
    {
        ballot = ballot == 0 ? lane.Ballot : ballot;
        var others = Others(set);
        var asks = new List<Task<Accepted>>(others.Length);
        for (var i = 0; i < others.Length; i++)
        {
            if (versionsHeld is null || versionsHeld[i] < write.Version)
            {
                var accept = new Accept { Key = KeyBytes(key), Ballot = ballot, Version = write.Version, Deleted = write.IsDeleted, Value = write.Value ?? [], WriteId = write.WriteId };
                if (superseded is not null)
                {
                    accept.SupersededWriteIds.AddRange(superseded);
                }

                asks.Add(SendAcceptAsync(others[i], accept));
            }
        }

        return await AllAcceptedAsync(key, lane, [.. asks], ballot).ConfigureAwait(true);
    }

    private async Task<RoundResult> AllAcceptedAsync(Key key, KeyLane lane, Task<Accepted>[] asks, long ballot = 0)
    {
        ballot = ballot == 0 ? lane.Ballot : ballot;
        var answers = await AllAsync(asks).ConfigureAwait(true);
        var kept = 0;
        foreach (var answer in answers ?? [])
        {
            kept += answer.Ok ? 1 : 0;
            lane.HighestBallotSeen = Math.Max(lane.HighestBallotSeen, answer.Ballot);
        }

        // A newer primary may have asked this server itself, as one of its replicas.
        var fencedHere = PromisedBallot(key) > ballot;
        if (answers is not null && kept == asks.Length && !fencedHere)
        {
            return RoundResult.Kept;
        }

        lane.Depose();
        var result = answers is not null && kept == 0 ? RoundResult.Refused : RoundResult.Unknown;
        lane.UndecidedBecause = result == RoundResult.Unknown ? RoundFailure(asks, answers, kept, fencedHere) : null;
        return result;
    }

    /// <summary>Why a round neither kept nor was refused everywhere: the first failed request, or who kept and who refused.</summary>
    private static string RoundFailure(Task<Accepted>[] asks, Accepted[]? answers, int kept, bool fencedHere)
    {
        if (answers is null)
        {
            var failed = Array.Find(asks, a => a.IsFaulted);
            return failed?.Exception?.InnerException?.Message ?? "a request failed";
        }

        return fencedHere
            ? "this server promised a newer primary meanwhile"
            : $"{kept} of {asks.Length} replicas kept it, the others hold a newer ballot";
    }

    /// <summary>
    /// Waits for a commit; false when the committer refused the write (its queue was full, or the
    /// node stops) or the storage failed the commit (a full disk, an I/O error: SQLite throws its
    /// own exception, not an <see cref="InvalidOperationException"/>), so the write is not on disk here.
    /// </summary>
    private static async Task<bool> CommittedAsync(Task<bool> commit)
    {
        try
        {
            await commit.ConfigureAwait(true);
            return true;
        }
#pragma warning disable CA1031 // Whatever failed the commit, the write is not on this server's disk; the caller tells why (CommitFailure).
        catch (Exception)
#pragma warning restore CA1031
        {
            return false;
        }
    }

    /// <summary>Why a commit <see cref="CommittedAsync"/> found failed did not keep its write.</summary>
    private static string CommitFailure(Task commit) => commit.Exception?.InnerException?.Message ?? "it was not committed";

    private static bool AllPromised(KeyLane lane, Promise[] promises)
    {
        var all = true;
        foreach (var promise in promises)
        {
            all &= promise.Promised;
            lane.HighestBallotSeen = Math.Max(lane.HighestBallotSeen, promise.Ballot);
        }

        return all;
    }

    /// <summary>Waits for every answer; null when any request failed (unreachable, timed out).</summary>
    private static async Task<T[]?> AllAsync<T>(Task<T>[] asks)
    {
        try
        {
            return await Task.WhenAll(asks).ConfigureAwait(true);
        }
        catch (RequestFailedException)
        {
            return null;
        }
    }

    private static WriteCondition ConditionOf(WriteConditionKind kind) => kind switch
    {
        WriteConditionKind.IfAbsent => WriteCondition.IfAbsent,
        WriteConditionKind.IfPresent => WriteCondition.IfPresent,
        _ => WriteCondition.Always,
    };

    private Coordinate[] Others(Coordinate[] set)
    {
        var others = new Coordinate[set.Length - 1];
        var n = 0;
        foreach (var server in set)
        {
            if (server != Node.Self && n < others.Length)
            {
                others[n++] = server;
            }
        }

        return others;
    }

    /// <summary>The key's replica set under this node's view: the first r reachable servers of its walk, the primary first.</summary>
    /// <summary>The key's replica set now: the lane's own array while the set is unchanged (no allocation per operation), else a new one.</summary>
    private Coordinate[] CurrentSet(Key key, KeyLane lane)
    {
        Span<Coordinate> servers = stackalloc Coordinate[ReplicaCount];
        var count = Node.GetServersForKey(Node.KeySpace.KeyCoordinateOf(key), servers);
        return lane.Set.AsSpan().SequenceEqual(servers[..count]) ? lane.Set : servers[..count].ToArray();
    }

    private Coordinate[] ReplicaSet(KeyCoordinate coordinate)
    {
        Span<Coordinate> servers = stackalloc Coordinate[ReplicaCount];
        var count = Node.GetServersForKey(coordinate, servers);
        return servers[..count].ToArray();
    }

    private int ReplicaCount => (int)Math.Min(_options.ReplicaCount, Node.Shape.ServerCount);
}
