using ProtoBuf;

namespace CamCube.Services.KeyValue.Messages;

/// <summary>A key's primary's answer to a <see cref="ClientRequest"/>.</summary>
[ProtoContract]
public sealed class ClientReply
{
    /// <summary>Gets or sets whether the request was served, or why not.</summary>
    [ProtoMember(1)]
    public ReplyStatus Status { get; set; }

    /// <summary>Gets or sets how a served put or delete ended.</summary>
    [ProtoMember(2)]
    public WriteStatus WriteStatus { get; set; }

    /// <summary>Gets or sets the version: of the value read, of the write, or the one the key holds when a condition failed (0: no value).</summary>
    [ProtoMember(3)]
    public long Version { get; set; }

    /// <summary>Gets or sets whether a get found a value.</summary>
    [ProtoMember(4)]
    public bool Found { get; set; }

    /// <summary>Gets or sets the value a get found.</summary>
    [ProtoMember(5)]
    public byte[] Value { get; set; } = [];

    /// <summary>Gets or sets why a request was rejected, for a person.</summary>
    [ProtoMember(6)]
    public string Reason { get; set; } = "";

    /// <summary>Gets or sets how long the asking server may answer gets of the key from this reply itself (the value a get found, or the value a write of its own wrote), in microseconds from when it sent the request (0: not at all; a front-end lease).</summary>
    [ProtoMember(7)]
    public long LeaseMicroseconds { get; set; }
}
