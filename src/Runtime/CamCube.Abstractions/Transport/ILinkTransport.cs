using CamCube.Packets;

namespace CamCube.Transport;

/// <summary>
/// The shim between a node and its links (camcubeos 3.3): one per node. Send a frame on a link,
/// learn that a link has room, receive frames with the link they came in on, learn that a link
/// went down or came up. Nothing above this interface knows which transport is in use.
/// </summary>
/// <remarks>
/// Every call into <see cref="ITransportSink"/> happens on the node's event loop, and the node
/// calls this interface only from its event loop.
/// </remarks>
public interface ILinkTransport
{
    /// <summary>Gets the node's shape; a transport has a link in each direction the shape has one.</summary>
    TorusShape Shape { get; }

    /// <summary>Gets the node's coordinate.</summary>
    Coordinate Self { get; }

    /// <summary>Starts delivering events to <paramref name="sink"/>. Called once.</summary>
    void Start(ITransportSink sink);

    /// <summary>Stops the transport: no more events, and every frame it still holds is released.</summary>
    void Stop();

    /// <summary>Gets whether <paramref name="link"/> can take a frame now (its slot is empty).</summary>
    bool HasRoom(LinkDirection link);

    /// <summary>
    /// Sends <paramref name="frame"/> on <paramref name="link"/>. True hands the frame to the
    /// transport, which releases it when done; false (no room, or the link is down or absent)
    /// leaves it with the caller.
    /// </summary>
    bool TrySend(LinkDirection link, Packet frame);
}
