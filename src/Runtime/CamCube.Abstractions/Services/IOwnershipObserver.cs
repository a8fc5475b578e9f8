namespace CamCube.Services;

/// <summary>
/// Implemented by a service that watches the key coordinates it holds (<see cref="INodeContext.CreateKeyWatch"/>):
/// after a change of the node's reachability view, it hears which of them now have another root or replica set.
/// </summary>
public interface IOwnershipObserver
{
    /// <summary>
    /// Some watched key coordinates have another root or another replica set (the first
    /// <see cref="IKeyWatch.ReplicaCount"/> servers of <c>GetServersForKey</c>) than before the latest
    /// change of the reachability view (its <see cref="IReachabilityView.Version"/> is the one now).
    /// Runs on the node's event loop, after every <see cref="IService.OnServerReachabilityChanged"/>
    /// of that change. The key coordinates stay watched; ask <see cref="INodeContext.GetServersForKey"/>
    /// for their servers now.
    /// </summary>
    /// <param name="watch">The watch they belong to.</param>
    /// <param name="changed">The key coordinates whose root or replica set changed, each once; valid for the call only.</param>
    void OnOwnershipChanged(IKeyWatch watch, ReadOnlySpan<KeyCoordinate> changed);
}
