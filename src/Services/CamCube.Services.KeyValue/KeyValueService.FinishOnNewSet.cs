using CamCube.Services.KeyValue.Replication;
using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue;

/// <summary>
/// A write that races a replica's crash (camcubeos 5.2 fail-over): the accept to the dying replica
/// fails before this node's view drops it, so the round can neither call the write kept nor refused.
/// The primary does not give up: it waits (at most one <see cref="KeyValueServiceOptions.ReplicationTimeout"/>)
/// for the view to settle on the key's new replica set and, while it is still the primary, sends
/// the write to every other server of that set under the same ballot. Once each keeps it, every
/// live replica has it, which is all an acknowledgement promises; the replica that left catches up
/// if it comes back. An accept is idempotent, so the replicas that already kept it keep it once.
/// </summary>
public sealed partial class KeyValueService
{
    /// <summary>Finishes <paramref name="write"/> on the key's replica set once it no longer is <paramref name="set"/>; <see cref="RoundResult.Unknown"/> when the set stays, this server is no longer the primary or reaches no majority, or a server of the new set does not keep it.</summary>
    private async Task<RoundResult> FinishOnNewSetAsync(Key key, KeyLane lane, Coordinate[] set, StoredValue write, long ballot, List<ulong>? superseded = null)
    {
        var start = Now;
        var coordinate = Node.KeySpace.KeyCoordinateOf(key);
        var now = ReplicaSet(coordinate);
        while (now.AsSpan().SequenceEqual(set) && Node.TimeProvider.GetElapsedTime(start) < _options.ReplicationTimeout)
        {
            await DelayAsync(_options.RetryDelay).ConfigureAwait(true);
            now = ReplicaSet(coordinate);
        }

        // A newer primary took the key over meanwhile (this server promised it), or this server is on the
        // minority side of a partition, where it serves nothing: the outcome stays unknown.
        if (now.AsSpan().SequenceEqual(set) || now[0] != Node.Self || PromisedBallot(key) > ballot || !HasMajority)
        {
            return RoundResult.Unknown;
        }

        if (await ReplicateAsync(key, lane, write, now, versionsHeld: null, ballot, superseded).ConfigureAwait(true) != RoundResult.Kept)
        {
            return RoundResult.Unknown;
        }

        lane.Ballot = ballot;
        lane.Set = now;
        Statistics.WritesFinishedOnANewSet++;
        return RoundResult.Kept;
    }
}
