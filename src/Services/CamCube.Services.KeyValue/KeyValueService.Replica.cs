using CamCube.Services.KeyValue.Messages;
using CamCube.Services.KeyValue.Replication;
using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue;

/// <summary>
/// A replica of a key: it promises a new primary's ballot and refuses every lower one from then on
/// (the fence: a deposed primary can no longer have a write or a read acknowledged), and keeps the
/// writes of the primary it promised. The writes that arrive in one turn of the loop are committed
/// together (one disk write); a promise first commits the writes still waiting, so the new primary
/// hears of every write an old primary may yet be told was kept.
/// </summary>
public sealed partial class KeyValueService
{
    private CommitBatch? _commits;
    private bool _commitPosted;

    /// <summary>The highest ballot this server promised per key (in memory: a restarted server promised nothing).</summary>
    private readonly Dictionary<Key, long> _promised = [];

    private long PromisedBallot(Key key) => _promised.GetValueOrDefault(key);

    /// <summary>Promises <paramref name="prepare"/>'s ballot unless a higher one was promised or a lease granted to another server (or this server's start) has not run out.</summary>
    /// <param name="prepare">The new primary's request.</param>
    /// <param name="from">The server that sent it, or null when not known (it is then not the lease holder).</param>
    internal Promise OnPrepare(Prepare prepare, Coordinate? from = null)
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
        _promised[key] = prepare.Ballot;
        CommitNow();
        var held = _storage.Read(key);
        var promise = new Promise { Promised = true, Ballot = prepare.Ballot, Version = held?.Version ?? 0 };
        if (held is not null && held.Version > prepare.Version)
        {
            promise.HasValue = true;
            promise.Deleted = held.IsDeleted;
            promise.Value = held.Value ?? [];
        }

        return promise;
    }

    /// <summary>Keeps <paramref name="accept"/>'s write (or confirms its ballot) unless a higher ballot was promised; either renews the sender's lease.</summary>
    /// <param name="accept">The primary's request.</param>
    /// <param name="from">The server that sent it, or null when not known.</param>
    internal Task<Accepted> OnAcceptAsync(Accept accept, Coordinate? from = null)
    {
        var key = Key.FromBytes(accept.Key);
        var promised = PromisedBallot(key);
        if (accept.Ballot < promised)
        {
            return Task.FromResult(new Accepted { Ballot = promised });
        }

        _promised[key] = accept.Ballot;
        GrantLease(key, from);
        if (!accept.CheckOnly)
        {
            ForgetHeld(key);
        }

        return accept.CheckOnly
            ? Task.FromResult(new Accepted { Ok = true, Ballot = accept.Ballot })
            : KeepAsync(key, new StoredValue(accept.Version, accept.Deleted ? null : accept.Value), accept.Ballot);
    }

    private async Task<Accepted> KeepAsync(Key key, StoredValue write, long ballot)
    {
        await KeepSoon(key, write).ConfigureAwait(true);
        Watch(key);
        return new Accepted { Ok = true, Ballot = ballot };
    }

    /// <summary>Queues a write for the next commit of this turn's writes; the task completes when it is on disk.</summary>
    private Task<bool> KeepSoon(Key key, StoredValue write)
    {
        _commits ??= new CommitBatch(_storage);
        var kept = _commits.Add(key, write);
        if (!_commitPosted)
        {
            _commitPosted = Node.TryPost(static state => ((KeyValueService)state!).CommitNow(), this);
            if (!_commitPosted)
            {
                CommitNow();
            }
        }

        return kept;
    }

    private void CommitNow()
    {
        _commitPosted = false;
        _commits?.Commit();
    }
}
