namespace CamCube.Runtime;

/// <summary>Traffic on one link of a node, as plain counters read on the node's loop or by metrics.</summary>
/// <remarks>
/// The counters of all of a node's links are kept in one array (<see cref="NodeCounters"/>), four
/// in a row per link, so a hop counts its frame in one place instead of behind three references.
/// </remarks>
public sealed class LinkCounters
{
    /// <summary>How many counters a link has in the node's array.</summary>
    internal const int CountersPerLink = 4;

    /// <summary>The place of <see cref="PacketsSent"/> among a link's counters.</summary>
    internal const int PacketsSentIndex = 0;

    /// <summary>The place of <see cref="BytesSent"/>.</summary>
    internal const int BytesSentIndex = 1;

    /// <summary>The place of <see cref="PacketsReceived"/>.</summary>
    internal const int PacketsReceivedIndex = 2;

    /// <summary>The place of <see cref="BytesReceived"/>.</summary>
    internal const int BytesReceivedIndex = 3;

    private readonly long[] _counts;
    private readonly int _first;

    internal LinkCounters(long[] counts, int link)
    {
        _counts = counts;
        _first = link * CountersPerLink;
    }

    /// <summary>Gets the frames sent on the link.</summary>
    public long PacketsSent => _counts[_first + PacketsSentIndex];

    /// <summary>Gets the bytes sent on the link (frames, headers included).</summary>
    public long BytesSent => _counts[_first + BytesSentIndex];

    /// <summary>Gets the frames received on the link.</summary>
    public long PacketsReceived => _counts[_first + PacketsReceivedIndex];

    /// <summary>Gets the bytes received on the link.</summary>
    public long BytesReceived => _counts[_first + BytesReceivedIndex];
}
