using System.Collections.Concurrent;

namespace CamCube;

/// <summary>
/// The keyspace of one torus shape (camcubeos 3.2): maps keys to key coordinates and answers
/// <c>GetServersForKey</c>. Instances are immutable apart from lazily grown tables, thread-safe,
/// and shared by every node of a shape through <see cref="For"/>.
/// </summary>
public sealed class KeySpace
{
    /// <summary>The number of fail-over sequences: 8 facets times 6 axis orders.</summary>
    public const int SequenceCount = 48;

    private static readonly ConcurrentDictionary<TorusShape, KeySpace> s_byShape = new();

    // The axis orders in the order DESIGN.md section 4 fixes: xyz, xzy, yxz, yzx, zxy, zyx.
    private static readonly Axis[][] s_orders =
    [
        [Axis.X, Axis.Y, Axis.Z],
        [Axis.X, Axis.Z, Axis.Y],
        [Axis.Y, Axis.X, Axis.Z],
        [Axis.Y, Axis.Z, Axis.X],
        [Axis.Z, Axis.X, Axis.Y],
        [Axis.Z, Axis.Y, Axis.X],
    ];

    private readonly BreadthFirstOffsetTable[] _tables;

    private KeySpace(TorusShape shape)
    {
        Shape = shape;
        _tables = new BreadthFirstOffsetTable[s_orders.Length];
        for (var o = 0; o < s_orders.Length; o++)
        {
            _tables[o] = new BreadthFirstOffsetTable(shape, s_orders[o][0], s_orders[o][1], s_orders[o][2]);
        }
    }

    /// <summary>Gets the shape this keyspace covers.</summary>
    public TorusShape Shape { get; }

    /// <summary>Gets the shared keyspace of <paramref name="shape"/>.</summary>
    /// <exception cref="ArgumentException">The shape is <c>default</c>.</exception>
    public static KeySpace For(TorusShape shape)
    {
        if (!shape.IsValid)
        {
            throw new ArgumentException("The shape is not initialised (default(TorusShape)).", nameof(shape));
        }

        return s_byShape.GetOrAdd(shape, static s => new KeySpace(s));
    }

    /// <summary>Creates a keyspace that shares nothing with <see cref="For"/>'s (tests compare two).</summary>
    internal static KeySpace CreateUncached(TorusShape shape) => new(shape);

    /// <summary>
    /// Maps a key to its key coordinate: with <c>k64</c> the key's routing bits,
    /// <c>x = (((k64 &gt;&gt; 48) &amp; 0xFFFF) * X) &gt;&gt; 16</c>, likewise y from bits 32..47 and z from bits 16..31,
    /// and <c>w = k64 &amp; 0xFFFF</c> (DESIGN.md section 4).
    /// </summary>
    public KeyCoordinate KeyCoordinateOf(Key key)
    {
        var k64 = key.RoutingBits;
        return new KeyCoordinate(
            Scale(k64 >> 48, Shape.X),
            Scale(k64 >> 32, Shape.Y),
            Scale(k64 >> 16, Shape.Z),
            (ushort)k64);
    }

    /// <summary>Gets the sequence (0..47) a key coordinate follows: <c>w mod 48</c>.</summary>
    public static int SequenceOf(KeyCoordinate keyCoordinate) => keyCoordinate.W % SequenceCount;

    /// <summary>
    /// Gets entry <paramref name="index"/> of the canonical walk of <paramref name="keyCoordinate"/>,
    /// ignoring reachability. Entry 0 is the home server.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The index is outside 0..ServerCount - 1, or the home is outside the shape.</exception>
    public Coordinate GetCanonicalEntry(KeyCoordinate keyCoordinate, int index)
    {
        var home = CheckHome(keyCoordinate);
        var sequence = SequenceOf(keyCoordinate);
        var table = _tables[sequence % 6];
        if (index < 0 || index >= table.LengthMax)
        {
            throw new ArgumentOutOfRangeException(nameof(index), index, $"The walk of {Shape} has entries 0 to {table.LengthMax - 1}.");
        }

        return Place(home, table[index], sequence / 6);
    }

    /// <summary>
    /// Writes the first <c>destination.Length</c> reachable servers of the key's canonical walk into
    /// <paramref name="destination"/> and returns how many it wrote. The first is the key's root.
    /// Fewer are written only when fewer servers are reachable: then every reachable server is
    /// written, each once. Allocates nothing once the shape's tables have grown to the length needed.
    /// </summary>
    /// <exception cref="ArgumentException">The destination is empty, or the view covers another shape.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The key coordinate's home is outside the shape.</exception>
    public int GetServersForKey(KeyCoordinate keyCoordinate, IReachabilityView view, Span<Coordinate> destination)
    {
        ArgumentNullException.ThrowIfNull(view);
        if (destination.IsEmpty)
        {
            throw new ArgumentException("r must be at least 1: the destination span is empty.", nameof(destination));
        }

        if (view.Shape != Shape)
        {
            throw new ArgumentException($"The reachability view covers {view.Shape}, but this keyspace is {Shape}.", nameof(view));
        }

        var home = CheckHome(keyCoordinate);
        var sequence = SequenceOf(keyCoordinate);
        var table = _tables[sequence % 6];
        var facet = sequence / 6;
        var lengthMax = table.LengthMax;
        var everyoneReachable = view.ReachableCount == Shape.ServerCount;
        var written = 0;
        for (var i = 0; i < lengthMax && written < destination.Length; i++)
        {
            var server = Place(home, table[i], facet);
            if (everyoneReachable || view.IsReachable(server))
            {
                destination[written++] = server;
            }
        }

        return written;
    }

    /// <summary>
    /// Gets the first <paramref name="r"/> reachable servers of <paramref name="key"/>; the first is its
    /// root. When fewer than <paramref name="r"/> servers are reachable, returns all reachable servers
    /// (so a replica set degrades instead of failing). With no view, every server is reachable.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="r"/> is less than 1.</exception>
    public Coordinate[] GetServersForKey(Key key, int r, IReachabilityView? view = null) =>
        GetServersForKey(KeyCoordinateOf(key), r, view);

    /// <inheritdoc cref="GetServersForKey(Key, int, IReachabilityView?)"/>
    public Coordinate[] GetServersForKey(KeyCoordinate keyCoordinate, int r, IReachabilityView? view = null)
    {
        if (r < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(r), r, "r (the number of servers asked for) must be at least 1.");
        }

        view ??= new ReachabilityView(Shape);
        var length = (int)Math.Min(r, view.ReachableCount);
        if (length == 0)
        {
            return [];
        }

        var servers = new Coordinate[length];
        GetServersForKey(keyCoordinate, view, servers);
        return servers;
    }

    /// <summary>Tries to get the root of a key coordinate: the first reachable server of its walk. False only when no server is reachable.</summary>
    public bool TryGetRoot(KeyCoordinate keyCoordinate, IReachabilityView view, out Coordinate root)
    {
        // camcubeos 3.2: the walk starts at the home, so a reachable home is the root (no walk).
        ArgumentNullException.ThrowIfNull(view);
        var home = keyCoordinate.Home;
        if (view.Shape == Shape && Shape.Contains(home) && view.IsReachable(home))
        {
            root = home;
            return true;
        }

        Span<Coordinate> one = stackalloc Coordinate[1];
        var found = GetServersForKey(keyCoordinate, view, one) == 1;
        root = one[0];
        return found;
    }

    private Coordinate CheckHome(KeyCoordinate keyCoordinate)
    {
        var home = keyCoordinate.Home;
        Shape.EnsureContains(home, nameof(keyCoordinate));
        return home;
    }

    private Coordinate Place(Coordinate home, BreadthFirstOffsetTable.Offset offset, int facet) => new(
        Wrap(home.X, offset.X, (facet & 1) != 0, Shape.X),
        Wrap(home.Y, offset.Y, (facet & 2) != 0, Shape.Y),
        Wrap(home.Z, offset.Z, (facet & 4) != 0, Shape.Z));

    private static int Wrap(int home, int offset, bool negative, int size)
    {
        if (negative)
        {
            var v = home - offset;
            return v < 0 ? v + size : v;
        }

        var w = home + offset;
        return w >= size ? w - size : w;
    }

    private static int Scale(ulong bits, int size) => (int)(((bits & 0xFFFF) * (ulong)size) >> 16);
}
