using CamCube.Packets;

namespace CamCube.Transport;

/// <summary>What a transport tells its node, always on the node's event loop.</summary>
public interface ITransportSink
{
    /// <summary>A frame arrived on <paramref name="link"/>; the node now owns it.</summary>
    void OnFrameReceived(LinkDirection link, Packet frame);

    /// <summary><paramref name="link"/> has room for a frame: the node polls its services for one.</summary>
    void OnLinkRoom(LinkDirection link);

    /// <summary>The transport saw <paramref name="link"/> go down or come up (for example a cut cable).</summary>
    void OnLinkStatus(LinkDirection link, bool up);
}
