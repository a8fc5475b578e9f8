namespace CamCube.Services.Reliable;

/// <summary>Why a reliable send failed (<see cref="ReliableTransferException.Reason"/>).</summary>
public enum ReliableFailure
{
    /// <summary>The peer became unreachable (the reachability view, a drop notice, or the peer lost the flow's state by restarting) before it had the whole message.</summary>
    PeerUnreachable = 1,

    /// <summary>The message is longer than <see cref="ReliableOptions.MessageBytesMax"/>.</summary>
    MessageTooLarge = 2,

    /// <summary>The flow made no progress for <see cref="ReliableOptions.ProgressTimeout"/>.</summary>
    TimedOut = 3,

    /// <summary>The endpoint stopped (its service left the node) before the peer had the whole message.</summary>
    Stopped = 4,

    /// <summary>
    /// The key's root became unreachable after it could have had the whole message: it may have
    /// been delivered there, so it is not sent to the new root (never delivered to two roots).
    /// </summary>
    OutcomeUnknown = 5,

    /// <summary>The endpoint already holds <see cref="ReliableOptions.QueuedMessagesMax"/> messages.</summary>
    QueueFull = 6,

    /// <summary>The receiver refused the message: the messages it was reassembling already held <see cref="ReliableOptions.ReassemblyBytesMax"/> bytes.</summary>
    ReceiverFull = 7,
}
