namespace CamCube.Messaging;

/// <summary>Where a request's reply goes: the asker, the request's id, and in reliable mode the exchange it came on (0 if it came on a flow or in a packet of its own).</summary>
internal readonly record struct ReplyAddress(Coordinate Asker, ulong RequestId, ulong ExchangeId);
