using ProtoBuf;

namespace ReplicatedCounter;

/// <summary>A counter's value: the reply to <see cref="Increment"/> and <see cref="Read"/>, and the copy a root sends its next servers.</summary>
[ProtoContract]
public sealed class CounterValue
{
    /// <summary>Gets or sets the counter's name.</summary>
    [ProtoMember(1)]
    public string Name { get; set; } = "";

    /// <summary>Gets or sets the value.</summary>
    [ProtoMember(2)]
    public long Value { get; set; }

    /// <summary>Gets or sets how many increments made the value: of two copies, the higher version wins.</summary>
    [ProtoMember(3)]
    public long Version { get; set; }
}
