namespace CamCube.Messaging;

/// <summary>A request sent as a message on a reliable flow: what its send completion fails, if the request still waits.</summary>
/// <param name="Pending">What waits for the reply.</param>
/// <param name="RequestId">The request's id (the pending reply may carry a later request by the time the send ends).</param>
internal sealed record SentRequest(PendingReply Pending, ulong RequestId);
