using ProtoBuf;

namespace CamCube.Services.KeyValue.Messages;

/// <summary>A replica's answer to <see cref="Accept"/>: kept (on disk for the disk backend), or refused for a higher ballot.</summary>
[ProtoContract]
public sealed class Accepted
{
    /// <summary>Gets or sets whether the replica kept the write (or confirmed the ballot).</summary>
    [ProtoMember(1)]
    public bool Ok { get; set; }

    /// <summary>Gets or sets the ballot the replica has promised.</summary>
    [ProtoMember(2)]
    public long Ballot { get; set; }
}
