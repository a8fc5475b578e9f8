using CamCube.Services.KeyValue.Messages;
using CamCube.Services.KeyValue.Replication;
using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue;

/// <summary>
/// A key's first write in one round. A primary that has never seen the key must take it over before
/// it writes (a round of promises, then a round of accepts); when nothing was ever written, the
/// promises have nothing to tell it, so it sends the write with the take-over. Each replica that has
/// never seen the key either promises the ballot and keeps the write at the ballot's first version
/// in one commit. When every one did, the write is on every replica and is acknowledged. When one
/// knew the key (or refused, or did not answer), the primary takes the key over as always; the write
/// is answered if that round adopted it as the key's newest, and is otherwise written anew above
/// what the key held. A replica's copy may so never take effect (a replica that knew the key held a
/// value from before, whose take-over ballot is above every first write's), so a replica notes its
/// id only as tentative (<see cref="RecentWrites.NoteTentative"/>) until the primary writes on under
/// the ballot or a take-over adopts the copy. Only an unconditional put asked for the first time
/// goes this way: its outcome does not depend on what the key held, and no server can have run it before.
/// </summary>
public sealed partial class KeyValueService
{
    /// <summary>The ballot this life of the server gives its keys' first writes (<see cref="Ballots.DrawFirstWrite"/>).</summary>
    private long _firstWriteBallot;

    private void DrawFirstWriteBallot(INodeContext node) =>
        _firstWriteBallot = Ballots.DrawFirstWrite(
            Reliable.NodeLife.Mix((ulong)node.Random.NextInt64(), node.TimeProvider.GetUtcNow().UtcTicks),
            node.Shape.IndexOf(node.Self),
            node.Shape.ServerCount);

    /// <summary>Whether the request may be written with the key's take-over: an unconditional put asked for the first time, of a key this server has never seen, with nothing holding it back.</summary>
    private bool CanWriteFirstInOneRound(Key key, KeyLane lane, ClientRequest request) =>
        _options.FirstWriteInOneRound
        && request is { Operation: KeyValueOperation.Put, Condition: WriteConditionKind.Always, FirstAttempt: true }
        && request.WriteId != 0
        && lane.HighestBallotSeen == 0
        && PromisedBallot(key) == 0
        && HeldValue(key, lane) is null
        && PromiseWait(key, Node.Self) == TimeSpan.Zero
        && Commits.HasRoom;

    /// <summary>
    /// Sends the write with the take-over. Answers it when every replica kept it; otherwise takes
    /// the key over and answers it if that adopted it, or returns null (the key is then this
    /// server's, and the write is served as any other); answers <see cref="ReplyStatus.Unsettled"/>
    /// when even the take-over failed, as the write may have been kept.
    /// </summary>
    private async Task<ClientReply?> WriteFirstAsync(Key key, KeyLane lane, Coordinate[] set, ClientRequest request, Coordinate asker)
    {
        var ballot = _firstWriteBallot;
        var write = new StoredValue(Versions.Next(0, ballot), request.Value, request.WriteId);
        var others = Others(set);
        var sentAt = Now;
        _promised[key] = ballot;
        var asks = new Task<Promise>[others.Length];
        for (var i = 0; i < others.Length; i++)
        {
            asks[i] = RequestServerAsync<Prepare, Promise>(others[i], new Prepare { Key = KeyBytes(key), Ballot = ballot, WriteId = write.WriteId, Value = request.Value }, _options.ReplicationTimeout);
        }

        // This server's promise and its copy, in the turn's commit, while the prepares travel.
        var promisedHere = Commits.Add(StorageWrite.Promise(key, ballot));
        var keptHere = KeptAsNewestAsync(KeepAsync(key, write));
        var promises = await AllAsync(asks).ConfigureAwait(true);
        var kept = await CommittedAsync(promisedHere).ConfigureAwait(true) & await keptHere.ConfigureAwait(true);
        if (promises is not null && AllPromised(lane, promises) && Array.TrueForAll(promises, promise => promise.Kept) && kept && PromisedBallot(key) == ballot)
        {
            lane.Ballot = ballot;
            lane.Set = set;
            TakeLease(lane, sentAt);
            Statistics.FirstWritesInOneRound++;
            return Acknowledge(key, lane, set, request, asker, write);
        }

        Statistics.FirstWritesTakenOverFirst++;
        if (!await TakeOverAsync(key, lane, set).ConfigureAwait(true))
        {
            return new ClientReply { Status = ReplyStatus.Unsettled };
        }

        return HeldValue(key, lane) is { } held && held.WriteId == write.WriteId
            ? Acknowledge(key, lane, set, request, asker, held)
            : null;
    }

    /// <summary>Whether a write reached the disk as the key's newest: false when the storage held a newer one or the committer refused it.</summary>
    private static async Task<bool> KeptAsNewestAsync(Task<bool> keep) =>
        await CommittedAsync(keep).ConfigureAwait(true) && await keep.ConfigureAwait(true);

    /// <summary>
    /// A replica's part, begun with its promise queued: keeps the first write a <see cref="Prepare"/>
    /// carries when it has never seen the key (no promise, no value, no note of the write) and the
    /// ballot is a first write's, and notes the write's id once it is on disk. The version kept, or 0
    /// when it keeps nothing and the prepare is answered as any other.
    /// </summary>
    private async Task<long> KeepFirstWriteAsync(Key key, Prepare prepare, long promisedBefore)
    {
        if (prepare.WriteId == 0
            || prepare.Ballot > Ballots.FirstWriteMax
            || promisedBefore != 0
            || prepare.Value.Length > ValueBytesMax
            || !Commits.HasRoom
            || _recentWrites.Knows(prepare.WriteId, key)
            || _storage.Read(key) is not null)
        {
            return 0;
        }

        ForgetHeld(key);
        var write = new StoredValue(Versions.Next(0, prepare.Ballot), prepare.Value, prepare.WriteId);
        if (!await KeptAsNewestAsync(KeepAsync(key, write)).ConfigureAwait(true))
        {
            return 0;
        }

        // It takes effect only if every replica keeps it (the primary then writes on under this ballot)
        // or a take-over adopts it: another replica may hold the key from before, above every first write.
        _recentWrites.NoteTentative(write.WriteId, key, write.Version, Now);
        return write.Version;
    }
}
