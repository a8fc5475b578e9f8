namespace CamCube.Services.Reliable;

/// <summary>
/// Told once, on the node's event loop, how an exchange begun with
/// <see cref="ReliableEndpoint.Request(Coordinate, ReadOnlySpan{byte}, ExchangeCompletion, object?, out ulong)"/> ended:
/// with its reply, or with why there is none. Pass a static lambda or a cached delegate: the
/// exchange then allocates nothing.
/// </summary>
/// <param name="state">The state passed to the request.</param>
/// <param name="reply">The reply when <paramref name="error"/> is null (its body is valid for the call only); default otherwise.</param>
/// <param name="error">Null when the reply came; otherwise why the exchange failed (<see cref="ReliableTransferException.Reason"/>).</param>
public delegate void ExchangeCompletion(object? state, in ExchangeReply reply, ReliableTransferException? error);
