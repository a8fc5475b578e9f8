namespace CamCube.Runtime.Routing;

/// <summary>
/// What a node knows of every server's links: the newest link-state update of each, by sequence
/// number. A server nobody has reported on is assumed whole (all its links up), so a cube without
/// failures needs no updates to route.
/// </summary>
internal sealed class LinkStateDatabase
{
    private readonly uint[] _sequence;
    private readonly byte[] _upLinks;
    private readonly byte _wholeMask;

    public LinkStateDatabase(TorusShape shape, byte wholeMask)
    {
        Shape = shape;
        _wholeMask = wholeMask;
        _sequence = new uint[shape.ServerCount];
        _upLinks = new byte[shape.ServerCount];
        Array.Fill(_upLinks, wholeMask);
    }

    public TorusShape Shape { get; }

    /// <summary>Gets a number that changes whenever the database does.</summary>
    public long Version { get; private set; }

    /// <summary>Gets or sets what to call after each change of <see cref="Version"/> (the routing table marks itself stale); may be null.</summary>
    public Action? Changed { get; set; }

    /// <summary>Gets how many servers report fewer than all their links up.</summary>
    public int DegradedCount { get; private set; }

    /// <summary>
    /// Gets a hash of every server's up links, kept as each update lands: databases with the same
    /// links have the same fingerprint whatever their sequence numbers, so a
    /// <see cref="RoutingComputationCache"/> can find a graph another node already searched.
    /// Equal fingerprints are a hint, never proof: the cache compares the links too.
    /// </summary>
    public ulong Fingerprint { get; private set; }

    /// <summary>Gets every server's up links (bit i for direction i), by server index.</summary>
    public ReadOnlySpan<byte> UpLinks => _upLinks;

    public byte WholeMask => _wholeMask;

    public uint SequenceOf(int server) => _sequence[server];

    public byte UpLinksOf(int server) => _upLinks[server];

    public bool IsKnown(int server) => _sequence[server] != 0;

    /// <summary>Stores an update if it is newer than what is known. Returns true if it was.</summary>
    public bool TryUpdate(int server, uint sequence, byte upLinks)
    {
        if (sequence <= _sequence[server])
        {
            return false;
        }

        _sequence[server] = sequence;
        upLinks &= _wholeMask;
        if (_upLinks[server] != upLinks)
        {
            DegradedCount += (_upLinks[server] == _wholeMask ? 1 : 0) - (upLinks == _wholeMask ? 1 : 0);
            Fingerprint ^= FingerprintOf(server, _upLinks[server]) ^ FingerprintOf(server, upLinks);
            _upLinks[server] = upLinks;
            Version++;
            Changed?.Invoke();
        }

        return true;
    }

    /// <summary>A server's share of <see cref="Fingerprint"/>: nothing while it is whole, so an empty database's fingerprint is 0.</summary>
    private ulong FingerprintOf(int server, byte upLinks)
    {
        if (upLinks == _wholeMask)
        {
            return 0;
        }

        // SplitMix64's finaliser: every bit of the (server, links) pair moves every bit of the result.
        var z = ((ulong)server << 8) | upLinks;
        z += 0x9E3779B97F4A7C15UL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
        return z ^ (z >> 31);
    }

    /// <summary>Gets whether the link of <paramref name="server"/> in direction <paramref name="link"/> can carry traffic: both ends report it up.</summary>
    public bool IsUsable(int server, LinkDirection link, int neighbor, LinkDirection peerLink) =>
        (_upLinks[server] & (1 << (int)link)) != 0 && (_upLinks[neighbor] & (1 << (int)peerLink)) != 0;
}
