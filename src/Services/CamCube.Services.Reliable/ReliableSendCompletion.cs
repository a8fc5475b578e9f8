namespace CamCube.Services.Reliable;

/// <summary>
/// Told once, on the node's event loop and in a later turn than the send, how a message sent with
/// <see cref="ReliableEndpoint.Send(Coordinate, ReadOnlyMemory{byte}, System.Buffers.IMemoryOwner{byte}?, ReliableSendCompletion, object?)"/> ended.
/// </summary>
/// <param name="state">The state passed to the send.</param>
/// <param name="error">Null when the peer has the whole message; otherwise why it does not.</param>
public delegate void ReliableSendCompletion(object? state, ReliableTransferException? error);
