using ProtoBuf;

namespace CamCube.Services.KeyValue.Messages;

/// <summary>The answer to <see cref="DropLease"/>: the server no longer answers gets of the key from a lease on the replaced version.</summary>
[ProtoContract]
public sealed class LeaseDropped
{
    /// <summary>Gets or sets whether the server held such a lease.</summary>
    [ProtoMember(1)]
    public bool Held { get; set; }
}
