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

    /// <summary>Gets how many servers report fewer than all their links up.</summary>
    public int DegradedCount { get; private set; }

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
            _upLinks[server] = upLinks;
            Version++;
        }

        return true;
    }

    /// <summary>Gets whether the link of <paramref name="server"/> in direction <paramref name="link"/> can carry traffic: both ends report it up.</summary>
    public bool IsUsable(int server, LinkDirection link, int neighbor, LinkDirection peerLink) =>
        (_upLinks[server] & (1 << (int)link)) != 0 && (_upLinks[neighbor] & (1 << (int)peerLink)) != 0;
}
