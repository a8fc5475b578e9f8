namespace CamCube.Services.Reliable;

/// <summary>What a reliable packet carries: the second byte of its payload (docs/wire-format.md, "Reliable transport").</summary>
internal enum ReliablePacketKind : byte
{
    /// <summary>A fragment of a message, sender to receiver.</summary>
    Data = 1,

    /// <summary>A cumulative and selective acknowledgement, receiver to sender.</summary>
    Ack = 2,

    /// <summary>The receiver of a new flow or of a request to a key is not the key's root: the sender resumes (or asks again, under a new id) at the root it names.</summary>
    NotRoot = 3,

    /// <summary>The receiver has no state for a flow that is past its start (it restarted or forgot the flow), or is a later life than the one a request was meant for (its earlier life may have taken it).</summary>
    Reset = 4,

    /// <summary>A one-packet request of an exchange, requester to responder: no flow, no acknowledgement of its own (the reply is the acknowledgement).</summary>
    Request = 5,

    /// <summary>The reply of an exchange, responder to requester, in one packet; sent again for each duplicate of the answered request.</summary>
    Reply = 6,

    /// <summary>The responder has the request and its handler has not replied yet: the requester keeps waiting (progress, not an answer).</summary>
    Busy = 7,

    /// <summary>The receiver refused a message of the flow: its reassembly memory (<see cref="ReliableOptions.ReassemblyBytesMax"/>) is full; the sender fails the flow.</summary>
    Refused = 8,
}
