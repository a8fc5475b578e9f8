namespace CamCube.Services.KeyValue;

/// <summary>Where a server commits its writes to its storage (<see cref="KeyValueServiceOptions.Commits"/>).</summary>
public enum CommitMode
{
    /// <summary>
    /// For a durable storage (SQLite), a thread of its own, and the node's loop for the few writes of
    /// a turn that find the thread idle (at most four): a lone write then costs no hand-over to the
    /// thread and back, while the writes that come during a commit on the thread share its next one,
    /// so batches still grow with the load. For the memory backend, the node's loop.
    /// </summary>
    Automatic,

    /// <summary>
    /// On the node's loop: the writes of one turn share one commit, and the loop waits for the disk
    /// meanwhile. Needed for a durable storage on a test cube in virtual time, whose runs must replay.
    /// </summary>
    OnLoop,

    /// <summary>
    /// Every commit on a thread of its own: the loop routes and answers while a commit waits for the
    /// disk, and the writes that arrive meanwhile share the next commit. For nodes that share one loop
    /// (a real-time cube in one process), where a commit on the loop would hold up every node. Real
    /// time only (a node with a loop of its own, or a real-time cube).
    /// </summary>
    OnCommitThread,
}
