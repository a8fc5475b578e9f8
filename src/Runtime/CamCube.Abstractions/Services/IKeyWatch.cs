namespace CamCube.Services;

/// <summary>
/// The key coordinates a service holds (as root, stand-in root or replica) and wants to hear about
/// when their replica sets change: after every change of the node's reachability view, the runtime
/// finds which of them have another root or another set of the first <see cref="ReplicaCount"/>
/// servers of <c>GetServersForKey</c>, and tells the service with
/// <see cref="IOwnershipObserver.OnOwnershipChanged"/>. It looks only at the key coordinates whose
/// walk passes a server whose reachability changed, never at all of them (camcubeos 3.2: a failed
/// server's keys move to its neighbours, the others stay). Created with
/// <see cref="INodeContext.CreateKeyWatch"/>; use it on the node's event loop.
/// </summary>
public interface IKeyWatch
{
    /// <summary>Gets r: how many servers of each key coordinate's walk are watched (1: its root only).</summary>
    int ReplicaCount { get; }

    /// <summary>Gets how many key coordinates are watched.</summary>
    int Count { get; }

    /// <summary>Watches <paramref name="key"/>, with its replica set under the current view. Returns false if it was watched already.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The key coordinate's home is outside the torus.</exception>
    bool Add(KeyCoordinate key);

    /// <summary>Stops watching <paramref name="key"/>. Returns false if it was not watched.</summary>
    bool Remove(KeyCoordinate key);

    /// <summary>Stops watching every key coordinate.</summary>
    void Clear();

    /// <summary>Gets whether <paramref name="key"/> is watched.</summary>
    bool Contains(KeyCoordinate key);
}
