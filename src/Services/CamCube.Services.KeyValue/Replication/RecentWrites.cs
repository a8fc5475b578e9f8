namespace CamCube.Services.KeyValue.Replication;

/// <summary>
/// The writes this server knows took effect, by the id their front-end drew
/// (<see cref="Messages.ClientRequest.WriteId"/>): those it acknowledged as primary, kept as a replica,
/// or adopted when it took a key over, each with when it was noted. A front-end that lost a write's
/// answer asks again under the same id until its request's time is up, and the primary answers from
/// here rather than writing twice. The newest <see cref="Capacity"/> are kept in memory (the newest
/// write of each key also keeps its id on disk); a replica's promise carries those of its key noted
/// within the time a front-end may still ask (<see cref="CopyNotedSince"/>), so a primary that
/// restarted and forgot them learns them again when it takes the key over.
/// A replica that kept a key's first write with its promise notes it as tentative
/// (<see cref="NoteTentative"/>): it took effect only if every replica kept it, which the replica
/// learns from the primary's next accept under that ballot (<see cref="Confirm"/>), or once a
/// take-over adopts it. A tentative note answers no one and is not passed on.
/// </summary>
internal sealed class RecentWrites(int capacity)
{
    private readonly Dictionary<ulong, Noted> _byId = new(capacity);
    private readonly Dictionary<Key, Queue<ulong>> _byKey = [];
    private readonly Queue<ulong> _order = new(capacity);

    /// <summary>The tentative note of each key that has one: a replica keeps at most one first write per key (it must never have seen the key).</summary>
    private readonly Dictionary<Key, ulong> _tentative = [];

    /// <summary>Gets how many writes are kept at most.</summary>
    public int Capacity { get; } = capacity;

    /// <summary>
    /// Notes that the write <paramref name="writeId"/> of <paramref name="key"/> took effect at
    /// <paramref name="version"/>, as known at <paramref name="notedAt"/> (a timestamp of this node's
    /// clock); an id of 0 (none) is ignored.
    /// </summary>
    public void Note(ulong writeId, Key key, long version, long notedAt) => Add(writeId, key, version, notedAt, tentative: false);

    /// <summary>
    /// Notes a key's first write kept with a promise, which may yet never take effect (another
    /// replica held the key): it answers no <see cref="TryGet"/> until confirmed or noted for good,
    /// and a note already here stays as it is.
    /// </summary>
    public void NoteTentative(ulong writeId, Key key, long version, long notedAt) => Add(writeId, key, version, notedAt, tentative: true);

    /// <summary>
    /// Confirms the tentative notes of <paramref name="key"/> at <paramref name="ballot"/>: its
    /// primary wrote on under the ballot of the first write, which it does only once every replica
    /// kept that write.
    /// </summary>
    public void Confirm(Key key, long ballot)
    {
        // Every accept under a first write's ballot asks: one lookup, none while no note is tentative.
        if (_tentative.Count == 0 || !_tentative.TryGetValue(key, out var id))
        {
            return;
        }

        if (!_byId.TryGetValue(id, out var noted) || !noted.Tentative)
        {
            _tentative.Remove(key);
        }
        else if (Versions.BallotOf(noted.Version) == ballot)
        {
            _byId[id] = noted with { Tentative = false };
            _tentative.Remove(key);
        }
    }

    /// <summary>Whether the write <paramref name="writeId"/> of <paramref name="key"/> is noted here at all, tentative or not.</summary>
    public bool Knows(ulong writeId, Key key) =>
        writeId != 0 && _byId.TryGetValue(writeId, out var noted) && noted.Key == key;

    private void Add(ulong writeId, Key key, long version, long notedAt, bool tentative)
    {
        if (writeId == 0)
        {
            return;
        }

        if (tentative)
        {
            _tentative[key] = writeId;
        }

        if (_byId.TryGetValue(writeId, out var noted))
        {
            if (!tentative || noted.Tentative)
            {
                _byId[writeId] = new Noted(key, version, Math.Max(noted.At, notedAt), tentative);
            }

            return;
        }

        if (_byId.Count >= Capacity)
        {
            Forget(_order.Dequeue());
        }

        _byId.Add(writeId, new Noted(key, version, notedAt, tentative));
        _order.Enqueue(writeId);
        if (!_byKey.TryGetValue(key, out var ofKey))
        {
            ofKey = new Queue<ulong>();
            _byKey.Add(key, ofKey);
        }

        ofKey.Enqueue(writeId);
    }

    /// <summary>Finds the version at which the write <paramref name="writeId"/> of <paramref name="key"/> took effect (a tentative note does not count).</summary>
    /// <returns>True if it is known here.</returns>
    public bool TryGet(ulong writeId, Key key, out long version)
    {
        if (writeId != 0 && _byId.TryGetValue(writeId, out var write) && write.Key == key && !write.Tentative)
        {
            version = write.Version;
            return true;
        }

        version = 0;
        return false;
    }

    /// <summary>
    /// Adds the ids and versions of the writes of <paramref name="key"/> noted here for good at or after
    /// <paramref name="since"/>, the newest <paramref name="max"/> of them at most, oldest first.
    /// </summary>
    public void CopyNotedSince(Key key, long since, int max, List<ulong> ids, List<long> versions)
    {
        if (!_byKey.TryGetValue(key, out var ofKey))
        {
            return;
        }

        var skip = Math.Max(0, ofKey.Count - max);
        foreach (var id in ofKey)
        {
            if (skip > 0)
            {
                skip--;
                continue;
            }

            if (_byId.TryGetValue(id, out var write) && write.At >= since && !write.Tentative)
            {
                ids.Add(id);
                versions.Add(write.Version);
            }
        }
    }

    private void Forget(ulong writeId)
    {
        if (!_byId.Remove(writeId, out var write))
        {
            return;
        }

        if (_tentative.TryGetValue(write.Key, out var tentative) && tentative == writeId)
        {
            _tentative.Remove(write.Key);
        }

        if (!_byKey.TryGetValue(write.Key, out var ofKey))
        {
            return;
        }

        // A key's ids leave in the order they came, as they leave the table.
        if (ofKey.Count > 0 && ofKey.Peek() == writeId)
        {
            ofKey.Dequeue();
        }

        if (ofKey.Count == 0)
        {
            _byKey.Remove(write.Key);
        }
    }

    private readonly record struct Noted(Key Key, long Version, long At, bool Tentative);
}
