namespace CamCube.Services.KeyValue.Storage;

/// <summary>
/// What a commit of <see cref="SqliteKeyValueStorage"/> has done when it returns, and so when a
/// replica may tell its primary that it kept a write.
/// </summary>
public enum SqliteDurability
{
    /// <summary>
    /// The default: the commit is written to the write-ahead log and flushed to the device (an fsync,
    /// SQLite's <c>synchronous = FULL</c>). An acknowledged write survives the kill of the process and
    /// the loss of the host's power.
    /// </summary>
    Synced,

    /// <summary>
    /// The commit is written to the write-ahead log file but not flushed (SQLite's <c>synchronous =
    /// NORMAL</c>; the log is flushed at each checkpoint). An acknowledged write survives the kill of
    /// the process (the operating system holds what was written), but a crash of the host's operating
    /// system or the loss of its power may take the last commits of that server. The write is still
    /// on every live replica of its key, so it is lost only when all of them lose their hosts at once.
    /// </summary>
    Written,
}
