namespace CamCube.Transport.Faults;

/// <summary>
/// A partition of a torus's servers into sides; frames between servers on different sides are
/// lost. One instance is shared by the <see cref="FaultInjectingTransport"/> of every node, and
/// changing it takes effect on all of them at once. Initially every server is on side 0.
/// </summary>
public sealed class NetworkPartition
{
    private readonly byte[] _sides;
    private int _serversOffSideZero;

    /// <summary>Creates a partition of <paramref name="shape"/> with every server on side 0 (no partition).</summary>
    /// <exception cref="ArgumentOutOfRangeException">The shape is not valid or has more than <see cref="Array.MaxLength"/> servers.</exception>
    public NetworkPartition(TorusShape shape)
    {
        if (!shape.IsValid || shape.ServerCount > Array.MaxLength)
        {
            throw new ArgumentOutOfRangeException(nameof(shape), shape, "A partition needs a valid shape of at most Array.MaxLength servers.");
        }

        Shape = shape;
        _sides = new byte[shape.ServerCount];
    }

    /// <summary>Gets the torus.</summary>
    public TorusShape Shape { get; }

    /// <summary>Gets whether any server is off side 0, that is whether the partition separates anything.</summary>
    public bool IsActive => _serversOffSideZero > 0;

    /// <summary>Puts <paramref name="server"/> on side <paramref name="side"/> (0 to 255).</summary>
    /// <exception cref="ArgumentOutOfRangeException">The server is outside the torus.</exception>
    public void SetSide(Coordinate server, byte side)
    {
        Shape.EnsureContains(server, nameof(server));
        ref var current = ref _sides[Shape.IndexOf(server)];
        _serversOffSideZero += (side != 0 ? 1 : 0) - (current != 0 ? 1 : 0);
        current = side;
    }

    /// <summary>Gets the side of <paramref name="server"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The server is outside the torus.</exception>
    public byte SideOf(Coordinate server)
    {
        Shape.EnsureContains(server, nameof(server));
        return _sides[Shape.IndexOf(server)];
    }

    /// <summary>Cuts <paramref name="servers"/> off from the rest: they go to side 1, every other server to side 0.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A server is outside the torus.</exception>
    public void Isolate(ReadOnlySpan<Coordinate> servers)
    {
        Heal();
        foreach (var server in servers)
        {
            SetSide(server, 1);
        }
    }

    /// <summary>Puts every server back on side 0.</summary>
    public void Heal()
    {
        Array.Clear(_sides);
        _serversOffSideZero = 0;
    }

    /// <summary>Gets whether <paramref name="a"/> and <paramref name="b"/> are on different sides.</summary>
    public bool Separates(Coordinate a, Coordinate b) => _serversOffSideZero > 0 && SideOf(a) != SideOf(b);
}
