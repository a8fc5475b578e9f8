namespace CamCube.Services.Reliable;

/// <summary>
/// Receives each whole message once, in order per flow, on the node's event loop. An exception it
/// throws is logged and the message counts as delivered (it is not sent again).
/// </summary>
/// <param name="message">The message; its body is valid for the call only.</param>
public delegate void ReliableMessageHandler(in ReliableMessage message);
