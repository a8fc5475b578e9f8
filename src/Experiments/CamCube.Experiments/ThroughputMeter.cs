namespace CamCube.Experiments;

/// <summary>
/// Counts what all-to-all traffic offers and delivers: packets in total, and bytes delivered to
/// each server while measuring (camcubeos 4.2.3 counts only packets delivered to a server, not
/// those it forwards). One instance is shared by the traffic service of every node.
/// </summary>
public sealed class ThroughputMeter
{
    private readonly long[] _bytesDelivered;

    /// <summary>Creates a meter for <paramref name="serverCount"/> servers.</summary>
    public ThroughputMeter(int serverCount)
    {
        _bytesDelivered = new long[serverCount];
    }

    /// <summary>Gets or sets whether deliveries count towards <see cref="BytesDeliveredTo"/> now.</summary>
    public bool IsMeasuring { get; set; }

    /// <summary>Gets how many packets the services handed to their nodes.</summary>
    public long PacketsOffered { get; private set; }

    /// <summary>Gets how many packets were delivered, measuring or not.</summary>
    public long PacketsDelivered { get; private set; }

    /// <summary>Gets the frame bytes (header and payload) delivered to server <paramref name="serverIndex"/> while measuring.</summary>
    public long BytesDeliveredTo(int serverIndex) => _bytesDelivered[serverIndex];

    /// <summary>Counts an offered packet.</summary>
    public void Offered() => PacketsOffered++;

    /// <summary>Counts a packet of <paramref name="frameBytes"/> delivered to server <paramref name="serverIndex"/>.</summary>
    public void Delivered(int serverIndex, int frameBytes)
    {
        PacketsDelivered++;
        if (IsMeasuring)
        {
            _bytesDelivered[serverIndex] += frameBytes;
        }
    }
}
