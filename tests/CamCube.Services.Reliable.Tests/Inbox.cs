namespace CamCube.Services.Reliable.Tests;

/// <summary>What one node's reliable service received, each message copied out of its pooled buffer.</summary>
internal sealed class Inbox
{
    public Inbox(Coordinate self) => Self = self;

    public Coordinate Self { get; }

    public List<Received> Messages { get; } = [];

    public void Record(in ReliableMessage message) => Messages.Add(new Received(message.Source, message.FlowId, message.Key, message.Body.ToArray()));

    internal sealed record Received(Coordinate Source, ulong FlowId, KeyCoordinate? Key, byte[] Body);
}
