using CamCube.Services.KeyValue.Messages;
using CamCube.Services.KeyValue.Replication;
using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue;

/// <summary>
/// Tombstones are purged (docs/key-value-store.md, "Deletes"): the primary that acknowledged a delete
/// removes the tombstone <see cref="KeyValueServiceOptions.TombstoneLifetime"/> later if the key still
/// holds it, is still served by this server with the replica set the delete was acknowledged with, and
/// every replica removed it first (each only if it still holds exactly that tombstone). The primary
/// then takes the key over again before its next write, so versions go on above the purged one.
/// </summary>
public sealed partial class KeyValueService
{
    /// <summary>How many purges may wait; past it a tombstone is kept (as before purging existed).</summary>
    private const int PendingPurgesMax = 65_536;

    private readonly Queue<PendingPurge> _purges = new();
    private ITimer? _purgeTimer;

    /// <summary>Gets how many tombstones wait for their lifetime to pass before they are purged.</summary>
    internal int PendingPurgeCount => _purges.Count;

    /// <summary>Plans the purge of a tombstone this server acknowledged (or found at start) as the key's primary.</summary>
    private void SchedulePurge(Key key, long version, Coordinate[]? set)
    {
        if (_purges.Count >= PendingPurgesMax)
        {
            return;
        }

        var due = Node.TimeProvider.GetTimestamp() + (long)(_options.TombstoneLifetime.TotalSeconds * Node.TimeProvider.TimestampFrequency);
        _purges.Enqueue(new PendingPurge(key, version, set, due));
        _purgeTimer ??= Node.CreateTimer(PurgeDue, _options.TombstoneLifetime, Timeout.InfiniteTimeSpan);
    }

    /// <summary>Plans the purge of the tombstones found in the storage when the service starts: their lifetime counts from now.</summary>
    private void SchedulePurgesOfStoredTombstones()
    {
        foreach (var (key, version) in _storage.ListTombstones())
        {
            // Whether this server is the key's primary then is checked when the lifetime has passed (the view is not built yet).
            SchedulePurge(key, version, set: null);
        }
    }

    private void PurgeDue()
    {
        _purgeTimer?.Dispose();
        _purgeTimer = null;
        var now = Node.TimeProvider.GetTimestamp();
        while (_purges.TryPeek(out var purge) && purge.DueTimestamp <= now)
        {
            _purges.Dequeue();
            _ = InvokeAsync(() => PurgeAsync(purge));
        }

        if (_purges.TryPeek(out var next))
        {
            _purgeTimer = Node.CreateTimer(PurgeDue, Node.TimeProvider.GetElapsedTime(now, next.DueTimestamp), Timeout.InfiniteTimeSpan);
        }
    }

    /// <summary>Purges one tombstone in the key's turn, so no write of the key runs meanwhile.</summary>
    private async Task<bool> PurgeAsync(PendingPurge purge)
    {
        if (!_lanes.TryGetValue(purge.Key, out var lane))
        {
            lane = new KeyLane();
            _lanes.Add(purge.Key, lane);
        }

        await lane.EnterAsync().ConfigureAwait(true);
        try
        {
            var coordinate = Node.KeySpace.KeyCoordinateOf(purge.Key);
            var set = ReplicaSet(coordinate);
            // Only with the key's own r servers in the set (none stands in for a failed one, which may come back with an older value), the set the delete was acknowledged with.
            var whole = set.AsSpan().SequenceEqual(Node.KeySpace.GetServersForKey(coordinate, ReplicaCount));
            var sameSet = whole && set[0] == Node.Self && (purge.Set is null || set.AsSpan().SequenceEqual(purge.Set));
            if (!HasMajority || !sameSet || _storage.Read(purge.Key) is not { IsDeleted: true } held || held.Version != purge.Version)
            {
                return false;
            }

            var others = Others(set);
            var asks = new Task<Purged>[others.Length];
            for (var i = 0; i < others.Length; i++)
            {
                asks[i] = RequestServerAsync<Purge, Purged>(others[i], new Purge { Key = KeyBytes(purge.Key), Ballot = PromisedBallot(purge.Key), Version = purge.Version }, _options.ReplicationTimeout);
            }

            var answers = await AllAsync(asks).ConfigureAwait(true);
            if (answers is null || Array.Exists(answers, answer => !answer.Ok))
            {
                return false;
            }

            // Versions go on above the purged one: the next operation takes the key over under a higher ballot.
            lane.Depose();
            var purged = await Commits.Add(StorageWrite.PurgeTombstone(purge.Key, purge.Version)).ConfigureAwait(true);
            Statistics.TombstonesPurged += purged ? 1 : 0;
            return purged;
        }
        finally
        {
            lane.Exit();
        }
    }

    /// <summary>Removes the tombstone the purge names, unless a higher ballot was promised; answers whether the key holds none now.</summary>
    internal async Task<Purged> OnPurgeAsync(Purge purge)
    {
        var key = Key.FromBytes(purge.Key);
        if (purge.Ballot < PromisedBallot(key) || purge.Version < 1)
        {
            // Refused: a higher ballot was promised, or the purge names no version (a sender that broke the format).
            return new Purged();
        }

        var removed = await Commits.Add(StorageWrite.PurgeTombstone(key, purge.Version)).ConfigureAwait(true);
        return new Purged { Ok = removed || _storage.Read(key) is null };
    }
}
