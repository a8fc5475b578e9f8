using CamCube.Services.KeyValue.Messages;
using CamCube.Services.KeyValue.Replication;

namespace CamCube.Services.KeyValue;

/// <summary>
/// A key's replica set that changed behind an unchanged primary: a replica died and the next server
/// of the key's walk took its place, or a restarted replica came back. The primary keeps its ballot
/// and brings the servers new to the set up to date with one accept round, rather than taking the key
/// over again under a new ballot, which a just-restarted server refuses for one read lease (so every
/// key of a replica that came back would stall that long). A server new to the set that promised a
/// higher ballot refuses the accept, and the primary then takes the key over as before.
/// </summary>
public sealed partial class KeyValueService
{
    /// <summary>Makes this server the primary of the key under <paramref name="set"/>: by extending the set it holds the key with, or by taking the key over.</summary>
    private async Task<bool> HoldKeyAsync(Key key, KeyLane lane, Coordinate[] set) =>
        (lane.Ballot != 0 && lane.Set.Length > 0 && lane.Set[0] == Node.Self && await ExtendSetAsync(key, lane, set).ConfigureAwait(true))
        || await TakeOverAsync(key, lane, set).ConfigureAwait(true);

    /// <summary>Sends the key's newest value (or, for a key never written, a check of the ballot) to the servers of <paramref name="set"/> the lane's set lacks; false, and the key deposed, when one refused or did not answer.</summary>
    private async Task<bool> ExtendSetAsync(Key key, KeyLane lane, Coordinate[] set)
    {
        var joined = new List<Coordinate>(set.Length);
        foreach (var server in set)
        {
            if (server != Node.Self && Array.IndexOf(lane.Set, server) < 0)
            {
                joined.Add(server);
            }
        }

        var held = HeldValue(key, lane);
        var asks = new Task<Accepted>[joined.Count];
        var sentAt = Now;
        for (var i = 0; i < asks.Length; i++)
        {
            asks[i] = held is null
                ? RequestServerAsync<Accept, Accepted>(joined[i], new Accept { Key = KeyBytes(key), Ballot = lane.Ballot, CheckOnly = true }, _options.ReplicationTimeout)
                : SendAcceptAsync(joined[i], new Accept { Key = KeyBytes(key), Ballot = lane.Ballot, Version = held.Version, Deleted = held.IsDeleted, Value = held.Value ?? [], WriteId = held.WriteId });
        }

        var leaseUntil = lane.LeaseUntil;
        if (await AllAcceptedAsync(key, lane, asks).ConfigureAwait(true) != RoundResult.Kept)
        {
            return false;
        }

        // The servers that stayed granted their leases earlier; the new ones in this round.
        lane.Set = set;
        TakeLease(lane, sentAt);
        lane.LeaseUntil = Math.Min(leaseUntil, lane.LeaseUntil);
        Statistics.SetExtensions++;
        return true;
    }
}
