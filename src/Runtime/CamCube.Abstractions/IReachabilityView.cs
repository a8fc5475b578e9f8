namespace CamCube;

/// <summary>
/// Which servers a node believes it can reach. GetServersForKey skips the servers this view
/// says are unreachable; the runtime feeds it from the link-state protocol.
/// </summary>
public interface IReachabilityView
{
    /// <summary>Gets the shape of the torus this view covers.</summary>
    TorusShape Shape { get; }

    /// <summary>Gets the number of reachable servers.</summary>
    long ReachableCount { get; }

    /// <summary>
    /// Gets a number that changes every time the view changes (a server becomes reachable or
    /// unreachable), so that what was computed from the view (roots, replica sets) knows when to
    /// compute again: equal versions of one view mean the same servers are reachable.
    /// </summary>
    long Version { get; }

    /// <summary>Gets whether <paramref name="server"/> is reachable. Coordinates outside the shape are unreachable.</summary>
    bool IsReachable(Coordinate server);
}
