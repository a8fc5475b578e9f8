using CamCube.Messaging;
using CamCube.Services.KeyValue.Messages;
using CamCube.Services.KeyValue.Replication;
using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue;

/// <summary>
/// A replica of a key: it promises a new primary's ballot and refuses every lower one from then on
/// (the fence: a deposed primary can no longer have a write or a read acknowledged), and keeps the
/// writes of the primary it promised. Writes and promises are committed in batches, in order, off the
/// node's loop for a durable storage (<see cref="Committer"/>); a promise is on disk before it is
/// told, and with it every write queued before it, so the new primary hears of every write an old
/// primary may yet be told was kept, and a restarted replica keeps the promises it made.
/// </summary>
public sealed partial class KeyValueService
{
    private Committer? _committer;

    /// <summary>How many writes' ids a server remembers (<see cref="RecentWrites"/>): far more than are written in a front-end's request timeout.</summary>
    private const int RecentWritesMax = 65_536;

    /// <summary>How many write ids a promise on the reliable transport carries at most: every write of its key noted within twice the request timeout, up to this many (about 56 KiB).</summary>
    private const int PromiseWriteIdsMax = 4_096;

    /// <summary>How many a promise carries with best-effort delivery, where it must fit one packet beside a value: the key's newest.</summary>
    private const int BestEffortPromiseWriteIdsMax = 8;

    /// <summary>The highest ballot this server promised per key; loaded from the storage when the service starts.</summary>
    private readonly Dictionary<Key, long> _promised = [];
    private readonly RecentWrites _recentWrites = new(RecentWritesMax);

    private Committer Commits => _committer ?? throw new InvalidOperationException("The key-value store is not on a node yet.");

    private long PromisedBallot(Key key) => _promised.GetValueOrDefault(key);

    /// <summary>Promises <paramref name="ballot"/> for <paramref name="key"/>: at once in memory, and on disk with the turn's commit, which the task awaits.</summary>
    private Task<bool> PromiseDurably(Key key, long ballot)
    {
        _promised[key] = ballot;
        return Commits.Add(StorageWrite.Promise(key, ballot));
    }

    /// <summary>
    /// Promises <paramref name="prepare"/>'s ballot (on disk before it is told) unless a higher one was
    /// promised or a lease granted to another server (or this server's start) has not run out; keeps
    /// the key's first write with the promise when the prepare carries one and this server has never
    /// seen the key (<see cref="KeepFirstWriteAsync"/>).
    /// </summary>
    /// <param name="prepare">The new primary's request.</param>
    /// <param name="from">The server that sent it, or null when not known (it is then not the lease holder).</param>
    internal async Task<Promise> OnPrepareAsync(Prepare prepare, Coordinate? from = null)
    {
        var key = Key.FromBytes(prepare.Key);
        var promised = PromisedBallot(key);
        if (prepare.Ballot <= promised)
        {
            return new Promise { Ballot = promised };
        }

        if (PromiseWait(key, from) is var wait && wait > TimeSpan.Zero)
        {
            return new Promise { Ballot = promised, LeaseWaitMicroseconds = Math.Max(1, (long)Math.Ceiling(wait.TotalMicroseconds)) };
        }

        GrantLease(key, from);
        var promisedOnDisk = PromiseDurably(key, prepare.Ballot);
        var firstWrite = KeepFirstWriteAsync(key, prepare, promised);
        await promisedOnDisk.ConfigureAwait(true);
        if (await firstWrite.ConfigureAwait(true) is var kept and not 0)
        {
            return new Promise { Promised = true, Ballot = prepare.Ballot, Version = kept, Kept = true };
        }

        var held = _storage.Read(key);
        var promise = new Promise { Promised = true, Ballot = prepare.Ballot, Version = held?.Version ?? 0 };
        if (held is not null && held.Version > prepare.Version)
        {
            promise.HasValue = true;
            promise.Deleted = held.IsDeleted;
            promise.Value = held.Value ?? [];
            promise.WriteId = held.WriteId;
        }

        CopyRecentWriteIds(key, promise.RecentWriteIds, promise.RecentWriteVersions);
        return promise;
    }

    /// <summary>
    /// Copies the ids of <paramref name="key"/>'s writes this server noted that a front-end may still
    /// ask about, with their versions, oldest first: one asks again at most RequestTimeout after it
    /// first asked, which was before any server noted the write; twice that allows for the clocks' rates.
    /// </summary>
    private void CopyRecentWriteIds(Key key, List<ulong> ids, List<long> versions)
    {
        var window = (long)(2 * _options.RequestTimeout.TotalSeconds * Node.TimeProvider.TimestampFrequency);
        var max = _options.Delivery == MessageDelivery.Reliable ? PromiseWriteIdsMax : BestEffortPromiseWriteIdsMax;
        _recentWrites.CopyNotedSince(key, Now - window, max, ids, versions);
    }

    /// <summary>Notes write ids another server sent (in a promise or a catch-up offer) as this server's own.</summary>
    private void NoteRecentWriteIds(Key key, List<ulong> ids, List<long> versions)
    {
        for (var i = 0; i < ids.Count && i < versions.Count; i++)
        {
            _recentWrites.Note(ids[i], key, versions[i], Now);
        }
    }

    /// <summary>Keeps <paramref name="accept"/>'s write (or confirms its ballot) unless a higher ballot was promised; either renews the sender's lease.</summary>
    /// <param name="accept">The primary's request.</param>
    /// <param name="from">The server that sent it, or null when not known.</param>
    internal Task<Accepted> OnAcceptAsync(Accept accept, Coordinate? from = null)
    {
        var key = Key.FromBytes(accept.Key);
        var promised = PromisedBallot(key);
        if (accept.Ballot < promised || (!accept.CheckOnly && accept.Version < 1))
        {
            // Refused: a higher ballot was promised, or the write has no version (versions start at 1; a
            // primary that broke the format), which the disk would refuse, failing the writes committed with it.
            return Task.FromResult(new Accepted { Ballot = promised });
        }

        _promised[key] = accept.Ballot;
        GrantLease(key, from);
        if (accept.Ballot <= Ballots.FirstWriteMax)
        {
            // Its primary writes on under a first write's ballot only once every replica kept that write.
            _recentWrites.Confirm(key, accept.Ballot);
        }

        if (accept.Ballot > promised)
        {
            // A ballot this replica did not promise before (its primary extended the key's set to it,
            // or it lost its disk): kept on disk before it is told, as a promise is, with the write
            // (committed after it) or alone for a check. Else, restarted with its disk, it would
            // promise the same ballot to a second server (take-over ballots carry no server's index).
            var promisedOnDisk = Commits.Add(StorageWrite.Promise(key, accept.Ballot));
            if (accept.CheckOnly)
            {
                return CheckedOnDiskAsync(promisedOnDisk, accept.Ballot);
            }
        }

        if (accept.CheckOnly)
        {
            return Task.FromResult(new Accepted { Ok = true, Ballot = accept.Ballot });
        }

        ForgetHeld(key);
        return AcceptedAsync(key, new StoredValue(accept.Version, accept.Deleted ? null : accept.Value, accept.WriteId), accept.Ballot, accept.SupersededWriteIds);
    }

    /// <summary>Answers a check of a ballot this replica had not promised once the promise is on disk.</summary>
    private static async Task<Accepted> CheckedOnDiskAsync(Task<bool> promisedOnDisk, long ballot)
    {
        await promisedOnDisk.ConfigureAwait(true);
        return new Accepted { Ok = true, Ballot = ballot };
    }

    private async Task<Accepted> AcceptedAsync(Key key, StoredValue write, long ballot, List<ulong> superseded)
    {
        await KeepAsync(key, write).ConfigureAwait(true);

        // A replica that keeps a write makes it take effect: were it the next primary, it would continue from it.
        for (var i = 0; i < superseded.Count; i++)
        {
            _recentWrites.Note(superseded[i], key, write.Version - (superseded.Count - i), Now);
        }

        _recentWrites.Note(write.WriteId, key, write.Version, Now);
        return new Accepted { Ok = true, Ballot = ballot };
    }

    /// <summary>Queues a write for the next commit; completes on the loop once it is on disk, with whether it was newer than what the key held.</summary>
    private async Task<bool> KeepAsync(Key key, StoredValue write)
    {
        var kept = await Commits.Add(new StorageWrite(key, write)).ConfigureAwait(true);
        Watch(key);
        return kept;
    }

    private void LoadPromises()
    {
        foreach (var (key, ballot) in _storage.ListPromises())
        {
            _promised[key] = Math.Max(ballot, PromisedBallot(key));
        }
    }
}
