namespace CamCube.Services.KeyValue;

/// <summary>A store that reads into a caller's reusable <see cref="StoreGet"/>: a get with no task and, in steady state, no allocation (a front-end's get path).</summary>
internal interface IReusableGets
{
    /// <summary>
    /// Starts <paramref name="get"/> (prepared with its key, and told of no other get now); its outcome hears
    /// how it ended, on the node's loop, or inside this call for a store that answers at once. Thread-safe.
    /// </summary>
    /// <returns>False if it could not start (the store is not on a running node, or the node's queue is full): its outcome hears nothing.</returns>
    bool TryStartGet(StoreGet get);
}
