using ProtoBuf;

namespace CamCube.Services.KeyValue.Messages;

/// <summary>The answer to a <see cref="Transfer"/>: how many of its values were newer and kept.</summary>
[ProtoContract]
public sealed class TransferAck
{
    /// <summary>Gets or sets how many values were kept.</summary>
    [ProtoMember(1)]
    public int Kept { get; set; }
}
