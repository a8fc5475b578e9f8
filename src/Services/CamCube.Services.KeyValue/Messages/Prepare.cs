using ProtoBuf;

namespace CamCube.Services.KeyValue.Messages;

/// <summary>
/// A new primary takes a key over (camcubeos 5.2 fail-over, fenced by a ballot): each replica
/// promises to refuse every lower ballot for the key from now on, and answers with the newest
/// write it holds, so the primary continues from the highest version of the surviving replicas.
/// </summary>
[ProtoContract]
public sealed class Prepare
{
    /// <summary>Gets or sets the key's 20 bytes.</summary>
    [ProtoMember(1)]
    public byte[] Key { get; set; } = [];

    /// <summary>Gets or sets the primary's ballot for the key: higher than every ballot it has seen for it.</summary>
    [ProtoMember(2)]
    public long Ballot { get; set; }

    /// <summary>Gets or sets the version the primary holds; a replica sends its value only when it holds a newer one.</summary>
    [ProtoMember(3)]
    public long Version { get; set; }
}
