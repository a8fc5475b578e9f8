using CamCube.Testing;

namespace CamCube.Experiments;

/// <summary>
/// The oracle of camcubeos 4.2.5: it has global knowledge of which servers are alive and checks
/// every delivery of a key-routed packet against the key's true root at that moment.
/// </summary>
/// <remarks>
/// A rejoining server is alive, and the root of its keys, from the instant it restarts, before it
/// has sent a single frame: until the news of its links reaches the server that held its keys
/// meanwhile, that server still takes them, and nothing any runtime could do would tell it
/// otherwise. So while a join is under way, until every live server that can reach the joiner
/// has it in its reachability view, a delivery to the root the key had without the joiner counts
/// as a hand-over (<see cref="DeliveredDuringJoin"/>), not a misdelivery. Everything else is
/// strict: a delivery anywhere but the true root, or the previous root once the join is known
/// everywhere, is misdelivered.
/// </remarks>
/// <param name="cube">The cube whose live servers are the truth.</param>
public sealed class DeliveryOracle(SimulatedCube cube)
{
    private readonly List<Coordinate> _joining = [];

    /// <summary>Gets or sets whether packets count (cleared after the run, for the drain).</summary>
    public bool IsCountingSends { get; set; } = true;

    /// <summary>Gets how many packets were sent.</summary>
    public long Sent { get; private set; }

    /// <summary>Gets how many packets were delivered.</summary>
    public long Delivered { get; private set; }

    /// <summary>Gets how many packets were delivered to a server other than the key's true root, outside a join's hand-over.</summary>
    public long Misdelivered { get; private set; }

    /// <summary>Gets how many packets were delivered to their key's previous root while the true root was still joining (see the remarks).</summary>
    public long DeliveredDuringJoin { get; private set; }

    /// <summary>Gets how many servers are joining now: restarted, and not yet in the view of every live server that can reach them.</summary>
    public int JoiningCount => _joining.Count;

    /// <summary>Gets or sets what to call on each misdelivery, to study them; may be null.</summary>
    public Action<Misdelivery>? MisdeliveryObserved { get; set; }

    private SimulatedCube Cube => cube;

    /// <summary>Counts a packet sent.</summary>
    public void OnSent() => Sent++;

    /// <summary>Notes that <paramref name="server"/> has just restarted: its join is under way.</summary>
    public void OnJoined(Coordinate server)
    {
        if (!_joining.Contains(server))
        {
            _joining.Add(server);
        }
    }

    /// <summary>Notes that <paramref name="server"/> failed: a failure takes effect at once, with no hand-over.</summary>
    public void OnFailed(Coordinate server) => _joining.Remove(server);

    /// <summary>Ends the joins that every live server able to reach the joiner now knows of.</summary>
    public void SettleJoins()
    {
        for (var i = _joining.Count - 1; i >= 0; i--)
        {
            if (IsJoinKnownEverywhere(_joining[i]))
            {
                _joining.RemoveAt(i);
            }
        }
    }

    /// <summary>Checks a delivery of a packet for <paramref name="key"/> at <paramref name="server"/>; returns whether it was right.</summary>
    /// <param name="server">Where the packet was delivered.</param>
    /// <param name="key">The packet's key coordinate.</param>
    /// <param name="source">The server that sent it.</param>
    /// <param name="hops">How many hops it took.</param>
    public bool OnDelivered(Coordinate server, KeyCoordinate key, Coordinate source, int hops)
    {
        ArgumentNullException.ThrowIfNull(cube);
        Delivered++;
        var root = cube.TrueRoot(key);
        if (root == server)
        {
            return true;
        }

        SettleJoins();
        if (_joining.Count > 0 && KeySpace.For(cube.Shape).TryGetRoot(key, new SettledServers(this), out var previous) && previous == server)
        {
            DeliveredDuringJoin++;
            return true;
        }

        Misdelivered++;
        MisdeliveryObserved?.Invoke(Explain(server, key, root, source, hops));
        return false;
    }

    private bool IsJoinKnownEverywhere(Coordinate joiner)
    {
        if (!cube.IsAlive(joiner))
        {
            return true;
        }

        var canReach = cube.TrueReachability(joiner);
        for (long i = 0; i < cube.Shape.ServerCount; i++)
        {
            var c = cube.Shape.CoordinateAt(i);
            if (canReach.IsReachable(c) && !cube[c].Reachability.IsReachable(joiner))
            {
                return false;
            }
        }

        return true;
    }

    private Misdelivery Explain(Coordinate server, KeyCoordinate key, Coordinate root, Coordinate source, int hops)
    {
        var node = cube[server];
        var rootLinksUp = 0;
        if (cube.IsAlive(root))
        {
            for (var d = 0; d < LinkDirections.Count; d++)
            {
                rootLinksUp += cube[root].IsLinkUp((LinkDirection)d) ? 1 : 0;
            }
        }

        return new Misdelivery(cube.Engine.Elapsed, server, key, root, source, hops, cube.IsAlive(server), node.Reachability.IsReachable(root), rootLinksUp);
    }

    /// <summary>The live servers whose joins are over: the keyspace as it was before the joins under way.</summary>
    private sealed class SettledServers(DeliveryOracle oracle) : IReachabilityView
    {
        public TorusShape Shape => oracle.Cube.Shape;

        public long ReachableCount => oracle.Cube.LiveServers.ReachableCount - oracle._joining.Count;

        // The live servers' version: nothing keeps results of this view across the joins under way.
        public long Version => oracle.Cube.LiveServers.Version;

        public bool IsReachable(Coordinate server) => oracle.Cube.IsAlive(server) && !oracle._joining.Contains(server);
    }
}
