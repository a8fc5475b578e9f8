using ProtoBuf;

namespace CamCube.Services.KeyValue.Messages;

/// <summary>A replica's answer to <see cref="AcceptBatch"/>: one <see cref="Accepted"/> per accept, in the same order, sent once all are committed.</summary>
[ProtoContract]
public sealed class AcceptedBatch
{
    /// <summary>Gets or sets the answers, as many as the batch had accepts.</summary>
    [ProtoMember(1)]
    public List<Accepted> Answers { get; set; } = [];
}
