namespace CamCube.Services.Diagnostics;

/// <summary>The outcome of one ping.</summary>
/// <param name="Target">The server pinged.</param>
/// <param name="Lost">True if no reply came back within the timeout (the other fields are then zero).</param>
/// <param name="RoundTripTime">The time from sending the request to receiving the reply.</param>
/// <param name="OutboundHops">Hops the request took, counted in the payload at every hop.</param>
/// <param name="ReturnHops">Hops the reply took back.</param>
public readonly record struct PingReply(Coordinate Target, bool Lost, TimeSpan RoundTripTime, int OutboundHops, int ReturnHops);
