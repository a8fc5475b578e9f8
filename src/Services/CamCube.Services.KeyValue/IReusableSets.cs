namespace CamCube.Services.KeyValue;

/// <summary>
/// A store that runs a caller's reusable <see cref="StoreSet"/>: an unconditional put with no task of
/// its own, whose outcome hears how it ended on the node's loop, so the caller decides where its answer
/// continues (a front-end's set path: the client's own receiving thread, not the thread pool).
/// </summary>
internal interface IReusableSets
{
    /// <summary>Gets the most bytes a value may have; a larger one is never started.</summary>
    int ValueBytesMax { get; }

    /// <summary>
    /// Starts <paramref name="set"/> (prepared with its key and value, and told of no other set now); its
    /// outcome hears how it ended, on the node's loop. Thread-safe.
    /// </summary>
    /// <returns>False if it could not start (the store is not on a running node, or the node's queue is full): its outcome hears nothing.</returns>
    bool TryStartSet(StoreSet set);
}
