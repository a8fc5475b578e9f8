namespace CamCube.Services.KeyValue.Replication;

/// <summary>
/// The writes this server knows took effect, by the id their front-end drew
/// (<see cref="Messages.ClientRequest.WriteId"/>): those it acknowledged as primary, kept as a replica,
/// or adopted when it took a key over. A front-end that lost a write's answer asks again under the
/// same id, and the primary answers from here rather than writing twice. The newest
/// <see cref="Capacity"/> are kept in memory (the newest write of each key also keeps its id on
/// disk), and the newest <see cref="PerKeyMax"/> of each key go with a replica's promise, so a
/// primary that restarted and forgot them learns them again when it takes the key over.
/// </summary>
internal sealed class RecentWrites(int capacity)
{
    /// <summary>How many of a key's newest writes a promise carries.</summary>
    public const int PerKeyMax = 8;

    private readonly Dictionary<ulong, (Key Key, long Version)> _byId = new(capacity);
    private readonly Dictionary<Key, Queue<ulong>> _byKey = [];
    private readonly Queue<ulong> _order = new(capacity);

    /// <summary>Gets how many writes are kept at most.</summary>
    public int Capacity { get; } = capacity;

    /// <summary>Notes that the write <paramref name="writeId"/> of <paramref name="key"/> took effect at <paramref name="version"/>; an id of 0 (none) is ignored.</summary>
    public void Note(ulong writeId, Key key, long version)
    {
        if (writeId == 0)
        {
            return;
        }

        if (_byId.ContainsKey(writeId))
        {
            _byId[writeId] = (key, version);
            return;
        }

        if (_byId.Count >= Capacity)
        {
            Forget(_order.Dequeue());
        }

        _byId.Add(writeId, (key, version));
        _order.Enqueue(writeId);
        if (!_byKey.TryGetValue(key, out var ofKey))
        {
            ofKey = new Queue<ulong>(PerKeyMax);
            _byKey.Add(key, ofKey);
        }

        if (ofKey.Count == PerKeyMax)
        {
            ofKey.Dequeue();
        }

        ofKey.Enqueue(writeId);
    }

    /// <summary>Finds the version at which the write <paramref name="writeId"/> of <paramref name="key"/> took effect.</summary>
    /// <returns>True if it is known here.</returns>
    public bool TryGet(ulong writeId, Key key, out long version)
    {
        if (writeId != 0 && _byId.TryGetValue(writeId, out var write) && write.Key == key)
        {
            version = write.Version;
            return true;
        }

        version = 0;
        return false;
    }

    /// <summary>Adds the ids and versions of the newest writes of <paramref name="key"/> known here (at most <see cref="PerKeyMax"/>), oldest first.</summary>
    public void CopyNewest(Key key, List<ulong> ids, List<long> versions)
    {
        if (!_byKey.TryGetValue(key, out var ofKey))
        {
            return;
        }

        foreach (var id in ofKey)
        {
            if (_byId.TryGetValue(id, out var write))
            {
                ids.Add(id);
                versions.Add(write.Version);
            }
        }
    }

    private void Forget(ulong writeId)
    {
        if (!_byId.Remove(writeId, out var write) || !_byKey.TryGetValue(write.Key, out var ofKey))
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
}
