using ProtoBuf;

namespace CamCube.Services.KeyValue.Messages;

/// <summary>A key's primary to a server it granted a front-end lease: a write of the key is about to begin; stop answering gets of the key from the lease.</summary>
[ProtoContract]
public sealed class DropLease
{
    /// <summary>Gets or sets the key.</summary>
    [ProtoMember(1)]
    public byte[] Key { get; set; } = [];

    /// <summary>Gets or sets the version the write replaces (0: none): a lease on it or an older one, even one still on its way, must not be used.</summary>
    [ProtoMember(2)]
    public long Version { get; set; }
}
