using ProtoBuf;

namespace ReplicatedCounter;

/// <summary>Adds <see cref="By"/> to the counter <see cref="Name"/>; routed to the root of the name's key.</summary>
[ProtoContract]
public sealed class Increment
{
    /// <summary>Gets or sets the counter's name.</summary>
    [ProtoMember(1)]
    public string Name { get; set; } = "";

    /// <summary>Gets or sets how much to add.</summary>
    [ProtoMember(2)]
    public long By { get; set; }
}
