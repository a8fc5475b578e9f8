namespace CamCube.Services;

/// <summary>
/// Implemented by a service that wants to hear when the network drops a packet it sent, so that a
/// reliable protocol reacts before its timeout: the node where the packet died sends a notice back
/// to the packet's source (service id 0xFF03, docs/wire-format.md), which hands it to the sending
/// service here. Notices are sent only for services that implement this interface (on the node
/// that dropped the packet, the service of the same id), and never for a notice.
/// </summary>
public interface IDropObserver
{
    /// <summary>
    /// A routed packet this service sent from this node was dropped: <see cref="DropReason.Unreachable"/>,
    /// <see cref="DropReason.HopLimitExceeded"/>, <see cref="DropReason.Expired"/> (its queue's time limit)
    /// or <see cref="DropReason.NoRoute"/>. Runs on the node's event loop, in a later turn than the drop
    /// (also for a packet dropped at this node, whatever its route call returned). Notices travel as
    /// packets do and may themselves be lost: a reliable protocol keeps its timeout.
    /// </summary>
    /// <param name="drop">What was dropped, where and why; its payload prefix is valid for the call only.</param>
    void OnDropped(in DroppedPacket drop);
}
