using ProtoBuf;

namespace CamCube.Services.KeyValue.Messages;

/// <summary>A server lists keys, with their versions, that the receiver should hold; the receiver answers with the ones it lacks (<see cref="Want"/>).</summary>
[ProtoContract]
public sealed class Offer
{
    /// <summary>Gets or sets why the keys are offered.</summary>
    [ProtoMember(1)]
    public CopyReason Reason { get; set; }

    /// <summary>Gets or sets the keys and versions.</summary>
    [ProtoMember(2)]
    public List<KeyVersionEntry> Entries { get; init; } = [];
}
