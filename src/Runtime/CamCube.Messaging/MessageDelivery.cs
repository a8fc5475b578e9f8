namespace CamCube.Messaging;

/// <summary>How a <see cref="MessagingServiceBase"/> carries its messages (<see cref="MessagingOptions.Delivery"/>).</summary>
public enum MessageDelivery
{
    /// <summary>One packet per message, best effort: a lost request or reply shows as <see cref="RequestFailure.TimedOut"/>; a message larger than a packet fails with <see cref="RequestFailure.MessageTooLarge"/>.</summary>
    BestEffort = 0,

    /// <summary>
    /// On the reliable transport (<c>CamCube.Services.Reliable</c>): messages up to its limit (64 MiB
    /// by default), fragmented, retransmitted until acknowledged, and handed to the handler exactly
    /// once, in order per destination.
    /// </summary>
    Reliable = 1,
}
