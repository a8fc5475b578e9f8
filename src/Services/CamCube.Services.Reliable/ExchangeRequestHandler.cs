namespace CamCube.Services.Reliable;

/// <summary>
/// Receives each exchange's request exactly once, on the node's event loop; it replies with
/// <see cref="ReliableEndpoint.Reply"/>, in the call or later. A duplicate of the request (a
/// retransmission, or a copy the network made) never reaches it: the endpoint answers it with the
/// reply it kept, or, while the reply is still to come, with a busy notice. An exception it throws
/// is logged and the request counts as taken (no reply goes back; the requester times out).
/// </summary>
/// <param name="request">The request; its body is valid for the call only.</param>
public delegate void ExchangeRequestHandler(in ExchangeRequest request);
