namespace CamCube.Transport.Udp;

/// <summary>A snapshot of one link's traffic counters since the transport started.</summary>
/// <param name="FramesSent">Frames sent on the link.</param>
/// <param name="FrameBytesSent">Bytes of those frames (without length prefixes, header or tag).</param>
/// <param name="DatagramsSent">Datagrams sent on the link; fewer than frames when frames were coalesced.</param>
/// <param name="FramesReceived">Frames received on the link and handed to the node.</param>
/// <param name="FrameBytesReceived">Bytes of those frames.</param>
/// <param name="DatagramsReceived">Authenticated datagrams received on the link.</param>
/// <param name="SendErrors">Datagrams the socket refused to send (their frames were dropped, as on a lossy link).</param>
/// <param name="CreditTimeouts">Times the link waited a whole credit timeout for the neighbour and took its datagrams in flight as lost.</param>
/// <param name="PeerAddressChanges">Times the neighbour's host name, resolved again while it was silent, gave a new address that the link then used.</param>
/// <param name="CreditDatagramsSent">Credit datagrams sent on the link: credit that was due while no frames datagram went back to carry it.</param>
public readonly record struct UdpLinkCounters(
    long FramesSent,
    long FrameBytesSent,
    long DatagramsSent,
    long FramesReceived,
    long FrameBytesReceived,
    long DatagramsReceived,
    long SendErrors,
    long CreditTimeouts,
    long PeerAddressChanges,
    long CreditDatagramsSent);
