using ProtoBuf;

namespace CamCube.Messaging.Tests;

/// <summary>A request the echo service answers with its text after <see cref="Milliseconds"/> of the node's time.</summary>
[ProtoContract]
public sealed class Wait
{
    [ProtoMember(1)]
    public string Text { get; set; } = "";

    [ProtoMember(2)]
    public int Milliseconds { get; set; }
}
