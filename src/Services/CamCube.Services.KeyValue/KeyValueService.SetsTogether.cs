using CamCube.Services.KeyValue.Messages;
using CamCube.Services.KeyValue.Replication;
using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue;

/// <summary>
/// Unconditional sets of one key that wait at its primary while the key is busy are written in one
/// round: each gets a version of its own, in arrival order, but only the last value goes to the
/// replicas and the disk, and all are answered when it is kept. None of them had been answered when
/// they began to wait, so they are concurrent, and any order of them is a linearization; the values
/// before the last are superseded at once, and no read can see them (reads wait for the turn too).
/// A hot key written by many clients, as memcslap writes its keys from every thread, costs one round
/// per turn instead of one per set.
/// </summary>
public sealed partial class KeyValueService
{
    /// <summary>The most sets written in one round; more wait for the next turn.</summary>
    private const int SetsTogetherMax = 64;

    /// <summary>Waits with the other unconditional sets of <paramref name="key"/> for the key's next turn, which writes them together.</summary>
    private async Task<ClientReply> SetTogetherAsync(Key key, KeyLane lane, WaitingSet waiting)
    {
        if (lane.AddWaiting(waiting, SetsTogetherMax) is not { } group)
        {
            return await waiting.Reply.Task.ConfigureAwait(true);
        }

        await lane.EnterAsync().ConfigureAwait(true);
        lane.CloseWaiting(group);
        try
        {
            // Alone, it is served as any request (a key's first write may then take one round less).
            var reply = await ServeInTurnAsync(key, lane, waiting.Request, waiting.Asker, group.Count > 1 ? group : null).ConfigureAwait(true);

            // A turn that ended before the write (not the primary, no majority, no take-over) answers every set alike.
            foreach (var set in group)
            {
                set.Reply.TrySetResult(reply);
            }

            return reply;
        }
        catch (Exception ex)
        {
            foreach (var set in group)
            {
                set.Reply.TrySetException(ex);
            }

            throw;
        }
        finally
        {
            lane.Exit();
        }
    }

    /// <summary>
    /// Writes the sets of <paramref name="group"/> in one round on <paramref name="held"/>: a set
    /// asked again after its answer was lost is answered with the version it took effect at; the
    /// others get versions in order, the last one's value is replicated, and every one is answered
    /// with the outcome of that round. Returns the first set's reply.
    /// </summary>
    private async Task<ClientReply> WriteTogetherAsync(Key key, KeyLane lane, Coordinate[] set, StoredValue? held, List<WaitingSet> group)
    {
        var fresh = new List<WaitingSet>(group.Count);
        foreach (var waiting in group)
        {
            if (WrittenBefore(key, waiting.Request.WriteId, held) is { } writtenAt)
            {
                Statistics.WritesAnsweredAgain++;
                waiting.Reply.TrySetResult(new ClientReply { WriteStatus = WriteStatus.Written, Version = writtenAt });
            }
            else if (waiting.Request.WriteId == 0 || !fresh.Exists(f => f.Request.WriteId == waiting.Request.WriteId))
            {
                fresh.Add(waiting);
            }
        }

        if (fresh.Count > 0)
        {
            AnswerAll(fresh, await WriteInOneRoundAsync(key, lane, set, held, fresh).ConfigureAwait(true));
        }

        // A set sent again while its first copy waited too is answered as that first copy.
        foreach (var waiting in group)
        {
            if (!waiting.Reply.Task.IsCompleted)
            {
                waiting.Reply.TrySetResult(await fresh.Find(f => f.Request.WriteId == waiting.Request.WriteId)!.Reply.Task.ConfigureAwait(true));
            }
        }

        return await group[0].Reply.Task.ConfigureAwait(true);
    }

    /// <summary>Writes <paramref name="fresh"/> in one round; null once each set is answered with its version, else the reply for them all.</summary>
    private async Task<ClientReply?> WriteInOneRoundAsync(Key key, KeyLane lane, Coordinate[] set, StoredValue? held, List<WaitingSet> fresh)
    {
        if (!Commits.HasRoom)
        {
            return CommitQueueFull();
        }

        var versions = new long[fresh.Count];
        var previous = held?.Version ?? 0;
        for (var i = 0; i < versions.Length; i++)
        {
            previous = versions[i] = Versions.Next(previous, lane.Ballot);
            if (previous == 0)
            {
                lane.Depose();
                return Unavailable("used up the versions of its ballot (it takes the key over again)");
            }
        }

        // The replicas note the superseded sets' ids too: were this primary to die before their answers
        // arrive, the next one answers their writers asking again rather than writing them twice.
        var superseded = new List<ulong>(fresh.Count - 1);
        for (var i = 0; i < fresh.Count - 1; i++)
        {
            superseded.Add(fresh[i].Request.WriteId);
            if (fresh[i].Request.LeaseDropped)
            {
                lane.LeaseHolders?.Remove(fresh[i].Asker);
            }
        }

        var last = fresh[^1];
        var write = new StoredValue(versions[^1], last.Request.Value, last.Request.WriteId);
        if (await ReplicateWriteAsync(key, lane, set, held?.Version ?? 0, write, last.Request.LeaseDropped ? last.Asker : null, superseded).ConfigureAwait(true) is { } failed)
        {
            return failed;
        }

        for (var i = 0; i < fresh.Count - 1; i++)
        {
            // Superseded in the same round: acknowledged with its own version, which no read will show.
            _recentWrites.Note(fresh[i].Request.WriteId, key, versions[i], Now);
            Statistics.WritesAcknowledged++;
            Statistics.WritesSupersededInTheirRound++;
            fresh[i].Reply.TrySetResult(new ClientReply { WriteStatus = WriteStatus.Written, Version = versions[i] });
        }

        last.Reply.TrySetResult(Acknowledge(key, lane, set, last.Request, last.Asker, write));
        return null;
    }

    private static void AnswerAll(List<WaitingSet> sets, ClientReply? reply)
    {
        if (reply is null)
        {
            return;
        }

        foreach (var waiting in sets)
        {
            waiting.Reply.TrySetResult(reply);
        }
    }
}
