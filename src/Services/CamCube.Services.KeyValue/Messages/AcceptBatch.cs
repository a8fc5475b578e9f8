using ProtoBuf;

namespace CamCube.Services.KeyValue.Messages;

/// <summary>
/// Several <see cref="Accept"/>s of one primary to one replica, made in one turn of the primary's
/// loop: one message, one commit at the replica and one reply (<see cref="AcceptedBatch"/>) for all.
/// </summary>
[ProtoContract]
public sealed class AcceptBatch
{
    /// <summary>Gets or sets the accepts, each handled as if it came alone, in order.</summary>
    [ProtoMember(1)]
    public List<Accept> Accepts { get; set; } = [];
}
