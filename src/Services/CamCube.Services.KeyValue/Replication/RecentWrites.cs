namespace CamCube.Services.KeyValue.Replication;

/// <summary>
/// The writes this server knows took effect, by the id their front-end drew
/// (<see cref="Messages.ClientRequest.WriteId"/>): those it acknowledged as primary, kept as a replica,
/// or adopted when it took a key over. A front-end that lost a write's answer asks again under the
/// same id, and the primary answers from here rather than writing twice. The newest
/// <see cref="Capacity"/> are kept (in memory; the newest write of each key also keeps its id on disk).
/// </summary>
internal sealed class RecentWrites(int capacity)
{
    private readonly Dictionary<ulong, (Key Key, long Version)> _byId = new(capacity);
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
            _byId.Remove(_order.Dequeue());
        }

        _byId.Add(writeId, (key, version));
        _order.Enqueue(writeId);
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
}
