using ProtoBuf;

namespace CamCube.Messaging.Tests;

/// <summary>A request the echo service answers at once when its text starts with "now", else in a later turn.</summary>
[ProtoContract]
public sealed class Ask
{
    [ProtoMember(1)]
    public string Text { get; set; } = "";
}
