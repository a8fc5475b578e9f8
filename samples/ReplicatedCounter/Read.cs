using ProtoBuf;

namespace ReplicatedCounter;

/// <summary>Reads the counter <see cref="Name"/> at the root of the name's key.</summary>
[ProtoContract]
public sealed class Read
{
    /// <summary>Gets or sets the counter's name.</summary>
    [ProtoMember(1)]
    public string Name { get; set; } = "";
}
