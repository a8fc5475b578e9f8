namespace CamCube.Transport;

/// <summary>
/// An optional capability of an <see cref="ILinkTransport"/>: room on request. A transport tells its
/// node <see cref="ITransportSink.OnLinkRoom"/> whenever a link gets room, whether or not the node
/// has anything to send on it. A transport that implements this interface stops doing so once
/// <see cref="EnableRoomOnRequest"/> was called, and then tells of room on a link only when the
/// node asked for it with <see cref="RequestRoom"/>. A transport in a simulator, where every room
/// notice is an event, saves an event per frame; a node that checks for this interface once and
/// asks only while it has packets waiting for the link sees exactly the same polls as before.
/// </summary>
/// <remarks>
/// Once room on request is enabled, <see cref="ITransportSink.OnLinkRoom"/> still comes for every
/// link that is up when the transport starts and for every link that comes up; otherwise it comes
/// once per <see cref="RequestRoom"/>, when a frame on that link has left (the frame being sent, or
/// if the link is idle, the next one sent), and a notice answers every request made before it.
/// A transport that wraps another (a fault decorator, say) does not implement this interface
/// unless it forwards the requests, so its inner transport keeps telling of all room.
/// </remarks>
public interface ILinkRoomRequests
{
    /// <summary>From now on, tell of room on a link only when asked (see the remarks). Called once, before <see cref="ILinkTransport.Start"/>.</summary>
    void EnableRoomOnRequest();

    /// <summary>Asks for <see cref="ITransportSink.OnLinkRoom"/> on <paramref name="link"/> when a frame on it has left: the node has something waiting for it.</summary>
    void RequestRoom(LinkDirection link);
}
