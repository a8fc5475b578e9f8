using ProtoBuf;

namespace CamCube.Services.KeyValue.Messages;

/// <summary>
/// A new primary takes a key over (camcubeos 5.2 fail-over, fenced by a ballot): each replica
/// promises to refuse every lower ballot for the key from now on, and answers with the newest
/// write it holds, so the primary continues from the highest version of the surviving replicas.
/// A primary that has never seen the key may carry the key's first write in this round
/// (<see cref="WriteId"/> not 0): a replica that has never seen the key either keeps it with its
/// promise, at the first version of the ballot, and says so (<see cref="Promise.Kept"/>).
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

    /// <summary>
    /// Gets or sets, for a key's first write in one round, the write's id (<see cref="ClientRequest.WriteId"/>);
    /// 0 for a take-over that carries no write. The write's version is the first of <see cref="Ballot"/>.
    /// </summary>
    [ProtoMember(4, DataFormat = DataFormat.FixedSize)]
    public ulong WriteId { get; set; }

    /// <summary>Gets or sets the value of the first write (with <see cref="WriteId"/>).</summary>
    [ProtoMember(5)]
    public byte[] Value { get; set; } = [];
}
