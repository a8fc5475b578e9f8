namespace CamCube.Services.KeyValue;

/// <summary>Where a server commits its writes to its storage (<see cref="KeyValueServiceOptions.Commits"/>).</summary>
public enum CommitMode
{
    /// <summary>On a thread of its own when the storage is durable (SQLite), on the node's loop otherwise (memory).</summary>
    Automatic,

    /// <summary>
    /// On the node's loop: the writes of one turn share one commit, and the loop waits for the disk
    /// meanwhile. Needed for a durable storage on a test cube in virtual time, whose runs must replay.
    /// </summary>
    OnLoop,

    /// <summary>
    /// On a thread of its own: the loop routes and answers while a commit waits for the disk, and the
    /// writes that arrive meanwhile share the next commit. Real time only (a node with a loop of its own, or a real-time cube).
    /// </summary>
    OnCommitThread,
}
