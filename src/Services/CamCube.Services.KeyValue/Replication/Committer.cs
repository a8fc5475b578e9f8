using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue.Replication;

/// <summary>
/// Commits a server's writes and promises to its storage in batches, in the order they were added,
/// and tells each waiting task when its write is on disk. Added to on the node's loop only.
/// </summary>
internal abstract class Committer : IDisposable
{
    /// <summary>Gets a value indicating whether another write fits in the queue now.</summary>
    public abstract bool HasRoom { get; }

    /// <summary>
    /// Queues a write for a coming commit. The task completes once it is committed (so once every
    /// write added before it is), with whether it was kept; it fails when the queue is full, the
    /// committer stopped, or the storage failed.
    /// </summary>
    public abstract Task<bool> Add(StorageWrite write);

    /// <summary>Completes once every write added so far is committed (or failed).</summary>
    public abstract Task FlushAsync();

    /// <summary>Commits what waits, then stops; writes added later fail.</summary>
    public abstract void Dispose();
}
