using ProtoBuf;

namespace CamCube.Services.KeyValue.Messages;

/// <summary>Values a server wanted (a packet's worth); it keeps each that is newer than what it holds and answers with <see cref="TransferAck"/>.</summary>
[ProtoContract]
public sealed class Transfer
{
    /// <summary>Gets or sets why the values are copied.</summary>
    [ProtoMember(1)]
    public CopyReason Reason { get; set; }

    /// <summary>Gets or sets the values.</summary>
    [ProtoMember(2)]
    public List<CopiedValue> Values { get; init; } = [];
}
