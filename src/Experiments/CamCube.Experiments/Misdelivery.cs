namespace CamCube.Experiments;

/// <summary>
/// One packet the <see cref="DeliveryOracle"/> found delivered to a server other than its key's
/// true root, with what global knowledge says about why: the view of the server that took it,
/// and the state of the true root.
/// </summary>
/// <param name="Time">When it was delivered, in virtual time.</param>
/// <param name="Server">The server that delivered it.</param>
/// <param name="Key">The packet's key coordinate.</param>
/// <param name="TrueRoot">The key's root with global knowledge: the first live server of its walk.</param>
/// <param name="Source">The server that sent the packet.</param>
/// <param name="Hops">The hops the packet took.</param>
/// <param name="ServerAlive">Whether the delivering server is alive (false: it delivered after it was killed).</param>
/// <param name="TrueRootInServersView">Whether the delivering server's view has the true root reachable.</param>
/// <param name="TrueRootLinksUp">How many links of the true root's node are up (a joining server has few).</param>
public sealed record Misdelivery(
    TimeSpan Time,
    Coordinate Server,
    KeyCoordinate Key,
    Coordinate TrueRoot,
    Coordinate Source,
    int Hops,
    bool ServerAlive,
    bool TrueRootInServersView,
    int TrueRootLinksUp);
