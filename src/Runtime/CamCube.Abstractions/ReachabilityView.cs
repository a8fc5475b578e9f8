namespace CamCube;

/// <summary>
/// A mutable <see cref="IReachabilityView"/>: every server is reachable until marked otherwise.
/// Not thread-safe: a node's runtime updates and reads it on its event loop.
/// </summary>
/// <remarks>
/// Shapes of up to <see cref="BitmapServerCountMax"/> servers keep one bit per server; larger
/// shapes keep the set of unreachable servers, so memory follows the number of failures.
/// </remarks>
public sealed class ReachabilityView : IReachabilityView
{
    /// <summary>The largest shape, in servers, that keeps a bitmap (2 MiB at most).</summary>
    public const long BitmapServerCountMax = 1L << 24;

    private readonly ulong[]? _unreachableBits;
    private readonly HashSet<long>? _unreachableSet;
    private long _unreachableCount;

    /// <summary>Creates a view of <paramref name="shape"/> in which every server is reachable.</summary>
    /// <exception cref="ArgumentException">The shape is <c>default</c>.</exception>
    public ReachabilityView(TorusShape shape)
    {
        if (!shape.IsValid)
        {
            throw new ArgumentException("The shape is not initialised (default(TorusShape)).", nameof(shape));
        }

        Shape = shape;
        if (shape.ServerCount <= BitmapServerCountMax)
        {
            _unreachableBits = new ulong[(shape.ServerCount + 63) / 64];
        }
        else
        {
            _unreachableSet = [];
        }
    }

    /// <inheritdoc/>
    public TorusShape Shape { get; }

    /// <inheritdoc/>
    public long ReachableCount => Shape.ServerCount - _unreachableCount;

    /// <summary>Gets the number of unreachable servers.</summary>
    public long UnreachableCount => _unreachableCount;

    /// <inheritdoc/>
    public long Version { get; private set; }

    /// <inheritdoc/>
    public bool IsReachable(Coordinate server)
    {
        if (!Shape.Contains(server))
        {
            return false;
        }

        if (_unreachableCount == 0)
        {
            return true;
        }

        var index = Shape.IndexOf(server);
        return _unreachableBits is not null
            ? (_unreachableBits[index >> 6] & (1UL << (int)(index & 63))) == 0
            : !_unreachableSet!.Contains(index);
    }

    /// <summary>Marks <paramref name="server"/> reachable or unreachable. Returns true if that changed the view.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The coordinate is outside the shape.</exception>
    public bool SetReachable(Coordinate server, bool reachable)
    {
        Shape.EnsureContains(server, nameof(server));
        var index = Shape.IndexOf(server);
        bool changed;
        if (_unreachableBits is not null)
        {
            ref var word = ref _unreachableBits[index >> 6];
            var mask = 1UL << (int)(index & 63);
            var wasUnreachable = (word & mask) != 0;
            changed = wasUnreachable == reachable;
            word = reachable ? word & ~mask : word | mask;
        }
        else
        {
            changed = reachable ? _unreachableSet!.Remove(index) : _unreachableSet!.Add(index);
        }

        if (changed)
        {
            _unreachableCount += reachable ? -1 : 1;
            Version++;
        }

        return changed;
    }

    /// <summary>Marks every server reachable.</summary>
    public void Reset()
    {
        if (_unreachableCount == 0)
        {
            return;
        }

        if (_unreachableBits is not null)
        {
            Array.Clear(_unreachableBits);
        }
        else
        {
            _unreachableSet!.Clear();
        }

        _unreachableCount = 0;
        Version++;
    }

    /// <summary>
    /// The oracle of tests and experiments: which servers <paramref name="from"/> can really reach
    /// over live servers and uncut cables, found by a breadth-first search with global knowledge.
    /// </summary>
    /// <param name="shape">The torus.</param>
    /// <param name="from">Where the search starts; if it is not alive, nothing is reachable.</param>
    /// <param name="isAlive">Whether a server is alive.</param>
    /// <param name="isCut">Whether the cable from a server in a direction is cut.</param>
    public static ReachabilityView FromGraph(TorusShape shape, Coordinate from, Func<Coordinate, bool> isAlive, Func<Coordinate, LinkDirection, bool> isCut)
    {
        ArgumentNullException.ThrowIfNull(isAlive);
        ArgumentNullException.ThrowIfNull(isCut);
        var view = new ReachabilityView(shape);
        var seen = new bool[shape.ServerCount];
        var queue = new Queue<Coordinate>();
        if (isAlive(from))
        {
            seen[shape.IndexOf(from)] = true;
            queue.Enqueue(from);
        }

        while (queue.TryDequeue(out var c))
        {
            for (var d = 0; d < LinkDirections.Count; d++)
            {
                var link = (LinkDirection)d;
                if (!shape.HasLink(link) || isCut(c, link))
                {
                    continue;
                }

                var n = shape.Neighbor(c, link);
                if (!seen[shape.IndexOf(n)] && isAlive(n))
                {
                    seen[shape.IndexOf(n)] = true;
                    queue.Enqueue(n);
                }
            }
        }

        for (var i = 0; i < seen.Length; i++)
        {
            if (!seen[i])
            {
                view.SetReachable(shape.CoordinateAt(i), reachable: false);
            }
        }

        return view;
    }

    /// <summary>Creates a view of <paramref name="shape"/> in which exactly <paramref name="unreachable"/> are unreachable.</summary>
    public static ReachabilityView WithUnreachable(TorusShape shape, IEnumerable<Coordinate> unreachable)
    {
        ArgumentNullException.ThrowIfNull(unreachable);
        var view = new ReachabilityView(shape);
        foreach (var server in unreachable)
        {
            view.SetReachable(server, reachable: false);
        }

        return view;
    }
}
