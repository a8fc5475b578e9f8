namespace CamCube.Messaging;

/// <summary>What a typed message's envelope carries (the first byte of its payload).</summary>
internal enum EnvelopeKind : byte
{
    /// <summary>A request: its handler's reply goes back to the source with the same request id.</summary>
    Request = 1,

    /// <summary>A reply to the request with the same id.</summary>
    Reply = 2,

    /// <summary>A one-way message: no reply.</summary>
    Message = 3,

    /// <summary>The request with the same id failed at the receiver; the body is the reason's text in UTF-8.</summary>
    Fault = 4,

    /// <summary>
    /// Reliable mode only, as the reply of a one-packet exchange: the reply is larger than one packet
    /// and comes on a flow, as a <see cref="Reply"/> with the same id; the asker stops sending the request again.
    /// </summary>
    ReplyFollows = 5,
}
