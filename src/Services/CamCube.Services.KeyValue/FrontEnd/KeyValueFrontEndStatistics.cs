namespace CamCube.Services.KeyValue.FrontEnd;

/// <summary>What a front-end's clients asked, for memcached's <c>stats</c>; counted from any thread.</summary>
public sealed class KeyValueFrontEndStatistics
{
    private long _getCommands;
    private long _getHits;
    private long _setCommands;
    private long _touchCommands;
    private long _flushCommands;

    /// <summary>Gets the number of keys asked for by get, gets, gat and gats.</summary>
    public long GetCommands => Volatile.Read(ref _getCommands);

    /// <summary>Gets the number of those keys found.</summary>
    public long GetHits => Volatile.Read(ref _getHits);

    /// <summary>Gets the number of storage commands (set, add, replace, append, prepend, cas).</summary>
    public long SetCommands => Volatile.Read(ref _setCommands);

    /// <summary>Gets the number of touch commands.</summary>
    public long TouchCommands => Volatile.Read(ref _touchCommands);

    /// <summary>Gets the number of flush_all commands.</summary>
    public long FlushCommands => Volatile.Read(ref _flushCommands);

    internal void CountGet(bool hit)
    {
        Interlocked.Increment(ref _getCommands);
        if (hit)
        {
            Interlocked.Increment(ref _getHits);
        }
    }

    internal void CountSet() => Interlocked.Increment(ref _setCommands);

    internal void CountTouch() => Interlocked.Increment(ref _touchCommands);

    internal void CountFlush() => Interlocked.Increment(ref _flushCommands);
}
