namespace CamCube.Experiments;

/// <summary>
/// What every server of an all-to-all run shares: the live servers it sends to, how fast and how
/// big, and the meter. Immutable but for the meter.
/// </summary>
public sealed class AllToAllPlan
{
    private readonly int[] _positionOf;

    /// <summary>Creates a plan over <paramref name="servers"/>.</summary>
    /// <param name="shape">The torus.</param>
    /// <param name="servers">The live servers, each of which sends to all the others.</param>
    /// <param name="packetsPerSecond">How many packets each server sends per second.</param>
    /// <param name="payloadBytes">The payload of every packet.</param>
    /// <param name="meter">Where offers and deliveries are counted.</param>
    public AllToAllPlan(TorusShape shape, IReadOnlyList<Coordinate> servers, double packetsPerSecond, int payloadBytes, ThroughputMeter meter)
    {
        ArgumentNullException.ThrowIfNull(servers);
        ArgumentOutOfRangeException.ThrowIfLessThan(servers.Count, 2);
        Shape = shape;
        Servers = [.. servers];
        PacketsPerSecond = packetsPerSecond;
        PayloadBytes = payloadBytes;
        Meter = meter ?? throw new ArgumentNullException(nameof(meter));
        _positionOf = new int[shape.ServerCount];
        Array.Fill(_positionOf, -1);
        for (var i = 0; i < Servers.Length; i++)
        {
            _positionOf[shape.IndexOf(Servers[i])] = i;
        }

        // A stride coprime with the number of destinations visits each of them once per round, well mixed.
        var others = Servers.Length - 1;
        Stride = Math.Max(1, (int)(others * 0.618));
        while (Gcd(Stride, others) != 1)
        {
            Stride++;
        }
    }

    /// <summary>Gets the torus.</summary>
    public TorusShape Shape { get; }

    /// <summary>Gets the live servers.</summary>
    public Coordinate[] Servers { get; }

    /// <summary>Gets how many packets each server sends per second.</summary>
    public double PacketsPerSecond { get; }

    /// <summary>Gets the payload of every packet, in bytes.</summary>
    public int PayloadBytes { get; }

    /// <summary>Gets the meter.</summary>
    public ThroughputMeter Meter { get; }

    /// <summary>Gets the step through the destinations.</summary>
    public int Stride { get; }

    /// <summary>Gets the <paramref name="k"/>-th destination of <paramref name="self"/> after <paramref name="offset"/>: every other live server once per round.</summary>
    public Coordinate Destination(Coordinate self, long k, int offset)
    {
        var others = Servers.Length - 1;
        var step = (int)((offset + (k % others * Stride)) % others);
        var position = _positionOf[Shape.IndexOf(self)] + 1 + step;
        return Servers[position >= Servers.Length ? position - Servers.Length : position];
    }

    private static int Gcd(int a, int b) => b == 0 ? a : Gcd(b, a % b);
}
