using CamCube.Packets;
using CamCube.Runtime;

namespace CamCube.Testing;

/// <summary>
/// A whole cube of real <see cref="Node"/>s in one process, in virtual time: the one shape of
/// <see cref="InMemoryCube"/> and <see cref="SimulatedCube"/>, so that a test written against it
/// runs unchanged on either (see <see cref="TestCube.Start"/>).
/// </summary>
/// <remarks>
/// Every duration is virtual time measured from now: <see cref="RunFor"/> and
/// <see cref="RunUntil"/> take how long to run, never an absolute time. Nothing here waits on the
/// wall clock; a test waits on a condition with <see cref="RunUntil"/>. The cube is driven from
/// the test's thread only.
/// </remarks>
public interface ITestCube
{
    /// <summary>Gets the torus.</summary>
    TorusShape Shape { get; }

    /// <summary>Gets the virtual time since the cube was made.</summary>
    TimeSpan Elapsed { get; }

    /// <summary>Gets the pool every node's packets come from.</summary>
    PacketPool Pool { get; }

    /// <summary>Gets the node at <paramref name="server"/>: the newest one after a restart.</summary>
    /// <exception cref="InvalidOperationException">No node was started there.</exception>
    Node this[Coordinate server] { get; }

    /// <summary>Gets the nodes of the live servers, in server index order.</summary>
    IEnumerable<Node> LiveNodes { get; }

    /// <summary>Gets whether the server at <paramref name="server"/> is alive.</summary>
    bool IsAlive(Coordinate server);

    /// <summary>Kills a server now, as a crash: its node stops and frames to it are lost. Returns false if it was dead already.</summary>
    bool Kill(Coordinate server);

    /// <summary>Restarts a killed server with a fresh node (fresh state), configured as at the start, and returns it.</summary>
    /// <exception cref="InvalidOperationException">The server is alive.</exception>
    Node Restart(Coordinate server);

    /// <summary>Runs until nothing is left to do at the current virtual time.</summary>
    void RunUntilIdle();

    /// <summary>Runs for <paramref name="duration"/> of virtual time.</summary>
    void RunFor(TimeSpan duration);

    /// <summary>
    /// Runs until <paramref name="condition"/> holds or <paramref name="timeout"/> of virtual time
    /// passes from now; returns whether it held.
    /// </summary>
    bool RunUntil(Func<bool> condition, TimeSpan timeout);

    /// <summary>Gets whether every live node has its link to every live neighbour over an uncut cable up.</summary>
    bool AllLinksUp();

    /// <summary>
    /// Gets which servers <paramref name="from"/> can really reach, over live servers and uncut
    /// cables, computed with global knowledge (the oracle).
    /// </summary>
    ReachabilityView TrueReachability(Coordinate from);

    /// <summary>Gets whether every live node's reachability view equals the oracle's.</summary>
    bool ViewsConverged();

    /// <summary>Gets the true root of <paramref name="key"/>: the first live server of its walk (camcubeos 3.2).</summary>
    /// <exception cref="InvalidOperationException">No server is alive.</exception>
    Coordinate TrueRoot(KeyCoordinate key);
}
