using ProtoBuf;

namespace CamCube.Services.KeyValue.Messages;

/// <summary>A key and the version the offering server holds of it.</summary>
[ProtoContract]
public sealed class KeyVersionEntry
{
    /// <summary>Gets or sets the key's 20 bytes.</summary>
    [ProtoMember(1)]
    public byte[] Key { get; set; } = [];

    /// <summary>Gets or sets the version held.</summary>
    [ProtoMember(2)]
    public long Version { get; set; }
}
