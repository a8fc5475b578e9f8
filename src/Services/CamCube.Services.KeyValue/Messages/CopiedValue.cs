using ProtoBuf;

namespace CamCube.Services.KeyValue.Messages;

/// <summary>One key's newest write, copied to a server that wanted it.</summary>
[ProtoContract]
public sealed class CopiedValue
{
    /// <summary>Gets or sets the key's 20 bytes.</summary>
    [ProtoMember(1)]
    public byte[] Key { get; set; } = [];

    /// <summary>Gets or sets the write's version.</summary>
    [ProtoMember(2)]
    public long Version { get; set; }

    /// <summary>Gets or sets whether the write is a delete (a tombstone).</summary>
    [ProtoMember(3)]
    public bool Deleted { get; set; }

    /// <summary>Gets or sets the value's bytes.</summary>
    [ProtoMember(4)]
    public byte[] Value { get; set; } = [];

    /// <summary>Gets or sets the id of the write (<see cref="ClientRequest.WriteId"/>), 0 if none.</summary>
    [ProtoMember(5, DataFormat = DataFormat.FixedSize)]
    public ulong WriteId { get; set; }
}
