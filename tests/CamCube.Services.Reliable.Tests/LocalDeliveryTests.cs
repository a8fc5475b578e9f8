using CamCube.Runtime;
using CamCube.Testing;

namespace CamCube.Services.Reliable.Tests;

/// <summary>Messages to the sender's own server are handed over in a later turn, even when that turn could not be posted at once.</summary>
public sealed class LocalDeliveryTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_self = new(1, 1, 1);

    [Fact]
    public async Task MessageToItselfIsDeliveredWhenTheServicesMailboxWasFullAtTheSend()
    {
        var received = new List<byte[]>();
        ContextService? service = null;
        var cube = SimulatedCube.Start(
            s_shape,
            node =>
            {
                if (node.Self == s_self)
                {
                    service = new ContextService((in ReliableMessage m) => received.Add(m.Body.ToArray()));
                    node.Register(service);
                }
            },
            new SimulatedCubeOptions { Seed = 29, NodeOptions = () => new NodeOptions { PostedItemsMax = 4 } });

        // The service's mailbox is full (other work posted this turn) when the message is sent.
        var filled = 0;
        while (service!.Context.TryPost(static _ => { }, null))
        {
            filled++;
        }

        var sent = service.Endpoint.SendAsync(s_self, new byte[] { 7, 8, 9 });
        Assert.True(cube.RunUntil(() => sent.IsCompleted, TimeSpan.FromSeconds(1)), "the message to itself was never delivered");

        await sent;
        Assert.Equal(4, filled);
        Assert.Equal(new byte[] { 7, 8, 9 }, Assert.Single(received));
    }

    private sealed class ContextService(ReliableMessageHandler handler) : ReliableService(ReliableCube.ServiceId, "reliable", handler)
    {
        public INodeContext Context { get; private set; } = null!;

        public override void OnRegistered(INodeContext node)
        {
            base.OnRegistered(node);
            Context = node;
        }
    }
}
