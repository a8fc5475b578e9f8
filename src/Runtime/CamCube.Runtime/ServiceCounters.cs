namespace CamCube.Runtime;

/// <summary>Traffic of one service at a node.</summary>
public sealed class ServiceCounters
{
    /// <summary>Gets the packets of this service sent on links from this node (originated or forwarded).</summary>
    public long PacketsSent { get; internal set; }

    /// <summary>Gets the bytes of this service sent on links from this node.</summary>
    public long BytesSent { get; internal set; }

    /// <summary>Gets the packets of this service received on links at this node.</summary>
    public long PacketsReceived { get; internal set; }

    /// <summary>Gets the bytes of this service received on links at this node.</summary>
    public long BytesReceived { get; internal set; }

    /// <summary>Gets the routed packets delivered to this service here.</summary>
    public long PacketsDelivered { get; internal set; }

    /// <summary>Gets the routed packets this node forwarded for this service.</summary>
    public long PacketsForwarded { get; internal set; }
}
