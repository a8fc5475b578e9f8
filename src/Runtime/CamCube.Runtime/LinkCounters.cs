namespace CamCube.Runtime;

/// <summary>Traffic on one link of a node, as plain counters read on the node's loop or by metrics.</summary>
public sealed class LinkCounters
{
    /// <summary>Gets the frames sent on the link.</summary>
    public long PacketsSent { get; internal set; }

    /// <summary>Gets the bytes sent on the link (frames, headers included).</summary>
    public long BytesSent { get; internal set; }

    /// <summary>Gets the frames received on the link.</summary>
    public long PacketsReceived { get; internal set; }

    /// <summary>Gets the bytes received on the link.</summary>
    public long BytesReceived { get; internal set; }
}
