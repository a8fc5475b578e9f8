using CamCube.Messaging;
using CamCube.Services.KeyValue.Messages;
using CamCube.Services.KeyValue.Replication;
using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue;

/// <summary>
/// Restoring copies (camcubeos 5.2): a server that comes back into a key's replica set is offered
/// the key's version at once and takes only what it missed; a server that replaced an unreachable
/// one gets the keys t after the failure, if the failed server has not come back by then. The keys
/// to look at come from the runtime's ownership-change upcall, never from a scan of every key.
/// </summary>
public sealed partial class KeyValueService
{
    /// <summary>How many times in a row an offer to a server may fail (the first retry at once, later ones a replication timeout apart) before the copy gives up until the server comes back.</summary>
    private const int CopyAttemptsMax = 4;

    /// <summary>The most bytes a catch-up offer's entry takes without write ids (<see cref="KeyVersionEntry"/>).</summary>
    private const int OfferEntryBytes = 40;

    /// <summary>The most bytes each write id adds to its entry: the id, its version, and their share of the lists' lengths.</summary>
    private const int OfferWriteIdBytes = 20;

    private readonly Dictionary<KeyCoordinate, WatchedKeys> _held = [];
    private readonly Dictionary<Coordinate, PendingReReplication> _departures = [];
    private readonly HashSet<Coordinate> _joined = [];
    private long _joinedInView = -1;
    private IKeyWatch? _watch;

    /// <inheritdoc/>
    protected override void OnServerReachabilityChangedCore(Coordinate server, bool reachable)
    {
        if (_joinedInView != Node.Reachability.Version)
        {
            _joined.Clear();
            _joinedInView = Node.Reachability.Version;
        }

        if (reachable)
        {
            _joined.Add(server);
            if (_departures.Remove(server, out var pending))
            {
                // It came back before t: no re-replication for it; it catches up on what it missed instead.
                pending.Timer?.Dispose();
                KeepCopiesForOthersStillGone(server, pending);
            }
        }
    }

    /// <inheritdoc/>
    public void OnOwnershipChanged(IKeyWatch watch, ReadOnlySpan<KeyCoordinate> changed)
    {
        var majority = HasMajority;
        var joinedNow = _joinedInView == Node.Reachability.Version;
        var offers = new Dictionary<Coordinate, List<KeyCoordinate>>();
        foreach (var coordinate in changed)
        {
            if (!_held.TryGetValue(coordinate, out var held))
            {
                continue;
            }

            var old = held.Set;
            var now = ReplicaSet(coordinate);
            held.Set = now;
            // One server restores copies: the first of the new set that was in the old one (it has every acknowledged write).
            if (!majority || Array.Find(now, server => Array.IndexOf(old, server) >= 0) != Node.Self)
            {
                continue;
            }

            foreach (var member in now)
            {
                if (Array.IndexOf(old, member) >= 0)
                {
                    continue;
                }

                if (joinedNow && _joined.Contains(member))
                {
                    OffersFor(offers, member).Add(coordinate);
                }
                else
                {
                    Defer(old, coordinate, member);
                }
            }
        }

        foreach (var (member, coordinates) in offers)
        {
            StartOffer(member, coordinates, CopyReason.CatchUp);
        }
    }

    private void StartWatching()
    {
        _watch = Node.CreateKeyWatch(ReplicaCount);
        foreach (var held in _storage.ListVersions())
        {
            Watch(held.Key);
        }
    }

    /// <summary>Remembers that this server holds <paramref name="key"/>, to hear when its replica set changes.</summary>
    private void Watch(Key key)
    {
        var coordinate = Node.KeySpace.KeyCoordinateOf(key);
        if (!_held.TryGetValue(coordinate, out var held))
        {
            held = new WatchedKeys(ReplicaSet(coordinate));
            _held.Add(coordinate, held);
            _watch?.Add(coordinate);
        }

        if (!held.Keys.Contains(key))
        {
            held.Keys.Add(key);
        }
    }

    /// <summary>
    /// A server replaced one that became unreachable: copy the keys to it at t, unless the other comes
    /// back first. When several of the old set's servers became unreachable at once, the copy waits
    /// under each of them, so that the return of one does not call off the copies that stand in for
    /// another still gone (the first of them to reach t makes it).
    /// </summary>
    private void Defer(Coordinate[] old, KeyCoordinate coordinate, Coordinate replacement)
    {
        var filed = false;
        foreach (var server in old)
        {
            if (!Node.Reachability.IsReachable(server))
            {
                DeferUnder(server, coordinate, replacement);
                filed = true;
            }
        }

        if (!filed)
        {
            DeferUnder(default, coordinate, replacement);
        }
    }

    private void DeferUnder(Coordinate departed, KeyCoordinate coordinate, Coordinate replacement)
    {
        if (!_departures.TryGetValue(departed, out var pending))
        {
            pending = new PendingReReplication();
            _departures.Add(departed, pending);
            pending.Timer = Node.CreateTimer(() => ReReplicate(departed), _options.ReReplicationDelay, Timeout.InfiniteTimeSpan);
        }

        pending.Copies.Add((coordinate, replacement));
    }

    /// <summary>
    /// The copies planned under a server that came back whose replacement is still in the key's
    /// set: it stands in for another of the key's own servers, still gone (two failed, one after the
    /// other or at once, and one came back), so the copy waits for that one's t instead.
    /// </summary>
    private void KeepCopiesForOthersStillGone(Coordinate back, PendingReReplication pending)
    {
        foreach (var (coordinate, replacement) in pending.Copies)
        {
            if (!_held.ContainsKey(coordinate) || Array.IndexOf(ReplicaSet(coordinate), replacement) < 0)
            {
                continue;
            }

            foreach (var own in Node.KeySpace.GetServersForKey(coordinate, ReplicaCount))
            {
                if (own != Node.Self && own != back && !Node.Reachability.IsReachable(own))
                {
                    DeferUnder(own, coordinate, replacement);
                }
            }
        }
    }

    private void ReReplicate(Coordinate departed)
    {
        if (!_departures.Remove(departed, out var pending))
        {
            return;
        }

        pending.Timer?.Dispose();
        var offers = new Dictionary<Coordinate, List<KeyCoordinate>>();
        foreach (var copy in pending.Copies)
        {
            // Made now: no other failed server's timer makes it again.
            foreach (var (_, other) in _departures)
            {
                other.Copies.Remove(copy);
            }

            var (coordinate, replacement) = copy;
            if (_held.ContainsKey(coordinate) && Node.Reachability.IsReachable(replacement) && Array.IndexOf(ReplicaSet(coordinate), replacement) >= 0)
            {
                OffersFor(offers, replacement).Add(coordinate);
            }
        }

        foreach (var (replacement, coordinates) in offers)
        {
            StartOffer(replacement, coordinates, CopyReason.ReReplication);
        }
    }

    private static List<KeyCoordinate> OffersFor(Dictionary<Coordinate, List<KeyCoordinate>> offers, Coordinate member)
    {
        if (!offers.TryGetValue(member, out var list))
        {
            list = [];
            offers.Add(member, list);
        }

        return list;
    }

    /// <summary>
    /// Starts an offer as posted work, so that its awaits resume on the node's loop (an upcall or a
    /// timer has no synchronization context of the loop, and the reliable transport completes its
    /// tasks asynchronously).
    /// </summary>
    private void StartOffer(Coordinate target, List<KeyCoordinate> coordinates, CopyReason reason) =>
        _ = InvokeAsync(() => OfferAsync(target, coordinates, reason));

    /// <summary>Offers the keys' versions to <paramref name="target"/>, a packet's worth at a time, and copies the values it lacks.</summary>
    private async Task OfferAsync(Coordinate target, List<KeyCoordinate> coordinates, CopyReason reason)
    {
        var entries = new List<KeyVersionEntry>();
        foreach (var coordinate in coordinates)
        {
            foreach (var key in _held[coordinate].Keys)
            {
                if (_storage.Read(key) is { } held)
                {
                    var entry = new KeyVersionEntry { Key = KeyBytes(key), Version = held.Version };
                    CopyRecentWriteIds(key, entry.RecentWriteIds, entry.RecentWriteVersions);
                    entries.Add(entry);
                }
            }
        }

        // An offer that fails (the target went away, or a first message met a flow the target lost in
        // its restart) is tried again a few times; the count starts anew with each offer of the copy.
        var first = 0;
        var failures = 0;
        while (first < entries.Count)
        {
            try
            {
                var offer = new Offer { Reason = reason, Entries = entries.GetRange(first, OfferLength(entries, first)) };
                var want = await RequestServerAsync<Offer, Want>(target, offer, _options.ReplicationTimeout).ConfigureAwait(true);
                Statistics.KeysOffered += offer.Entries.Count;
                await CopyAsync(target, want.Keys, reason).ConfigureAwait(true);
                first += offer.Entries.Count;
                failures = 0;
            }
            catch (RequestFailedException ex)
            {
                Statistics.OffersFailed++;
                failures++;
                if (failures >= CopyAttemptsMax || !Node.Reachability.IsReachable(target))
                {
                    // When the target comes back, it is offered the keys anew.
                    Log.CopyFailed(Node.Logger, reason, target, ex.Message);
                    return;
                }

                // The first failure is most often a lost packet whose timeout has already been waited
                // out, or a target that restarted since the offer began: it is tried again at once.
                if (failures > 1)
                {
                    await DelayAsync(_options.ReplicationTimeout).ConfigureAwait(true);
                }
            }
        }
    }

    /// <summary>How many of the entries from <paramref name="first"/> one offer lists: at most <see cref="KeyValueServiceOptions.OfferKeysMax"/>, and one packet's worth when every message is one packet.</summary>
    private int OfferLength(List<KeyVersionEntry> entries, int first)
    {
        var budget = _options.Delivery == MessageDelivery.Reliable ? long.MaxValue : _acceptBytesMax - MessageOverheadBytes;
        var bytes = 0L;
        var length = 0;
        while (first + length < entries.Count && length < _options.OfferKeysMax)
        {
            // A key, a version and each write id with its version, with protobuf's tags and lengths.
            bytes += OfferEntryBytes + (OfferWriteIdBytes * entries[first + length].RecentWriteIds.Count);
            if (length > 0 && bytes > budget)
            {
                break;
            }

            length++;
        }

        return length;
    }

    private async Task CopyAsync(Coordinate target, List<byte[]> keys, CopyReason reason)
    {
        var transfer = new Transfer { Reason = reason };
        var bytes = 0;
        foreach (var keyBytes in keys)
        {
            if (_storage.Read(Key.FromBytes(keyBytes)) is not { } held)
            {
                continue;
            }

            var length = held.Value?.Length ?? 0;
            if (transfer.Values.Count > 0 && bytes + length + 48 > ValueBytesMax + 48)
            {
                await SendAsync(target, transfer).ConfigureAwait(true);
                transfer = new Transfer { Reason = reason };
                bytes = 0;
            }

            transfer.Values.Add(new CopiedValue { Key = keyBytes, Version = held.Version, Deleted = held.IsDeleted, Value = held.Value ?? [], WriteId = held.WriteId });
            bytes += length + 48;
        }

        if (transfer.Values.Count > 0)
        {
            await SendAsync(target, transfer).ConfigureAwait(true);
        }
    }

    private async Task SendAsync(Coordinate target, Transfer transfer)
    {
        await RequestServerAsync<Transfer, TransferAck>(target, transfer, _options.ReplicationTimeout).ConfigureAwait(true);
        long bytes = 0;
        foreach (var value in transfer.Values)
        {
            bytes += value.Value.Length;
        }

        if (transfer.Reason == CopyReason.CatchUp)
        {
            Statistics.CatchUpKeysSent += transfer.Values.Count;
            Statistics.CatchUpBytesSent += bytes;
        }
        else
        {
            Statistics.ReReplicationKeysSent += transfer.Values.Count;
            Statistics.ReReplicationBytesSent += bytes;
        }
    }

    private async Task<Want> OnOfferAsync(Offer offer)
    {
        // The writes waiting for a commit are committed first, so the offer moves only what this server lacks.
        await Commits.FlushAsync().ConfigureAwait(true);
        var want = new Want();
        foreach (var entry in offer.Entries)
        {
            // The writes a front-end may still ask about, whether or not the value is copied: a server
            // that restarted with its disk holds the newest value but has forgotten them.
            var key = Key.FromBytes(entry.Key);
            NoteRecentWriteIds(key, entry.RecentWriteIds, entry.RecentWriteVersions);
            if ((_storage.Read(key)?.Version ?? 0) < entry.Version)
            {
                want.Keys.Add(entry.Key);
            }
        }

        return want;
    }

    /// <summary>Keeps the values another server copied here (catch-up or re-replication); answers how many were newer than what this server held.</summary>
    internal async Task<TransferAck> OnTransferAsync(Transfer transfer)
    {
        var keeping = new Task<bool>[transfer.Values.Count];
        for (var i = 0; i < keeping.Length; i++)
        {
            var value = transfer.Values[i];
            if (value.Version < 1)
            {
                // A value with no version (versions start at 1; a sender that broke the format) is not kept: the
                // disk would refuse it, failing the writes committed with it.
                keeping[i] = Task.FromResult(false);
                continue;
            }

            var key = Key.FromBytes(value.Key);

            // A server that holds a write of a ballot refuses every lower one, as if it had promised it:
            // else an older primary's late accept would be answered kept while this disk holds the newer
            // write. Kept on disk with the value (committed before it), as a replica's promise is.
            var ballot = Versions.BallotOf(value.Version);
            if (ballot > PromisedBallot(key))
            {
                _ = PromiseDurably(key, ballot);
            }

            keeping[i] = KeepAsync(key, new StoredValue(value.Version, value.Deleted ? null : value.Value, value.WriteId));
        }

        var kept = 0;
        for (var i = 0; i < keeping.Length; i++)
        {
            if (await keeping[i].ConfigureAwait(true))
            {
                kept++;
                Statistics.KeysReceived++;
                Statistics.BytesReceived += transfer.Values[i].Value.Length;
                ForgetHeld(Key.FromBytes(transfer.Values[i].Key));
            }
        }

        return new TransferAck { Kept = kept };
    }
}
