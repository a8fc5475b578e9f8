using CamCube.Testing;

namespace CamCube.Services.Reliable.Tests;

/// <summary>Data packets that break the format are dropped without delivering anything the sender did not send.</summary>
public sealed class MalformedDataTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_sender = new(0, 0, 0);
    private static readonly Coordinate s_receiver = new(1, 1, 1);

    [Fact]
    public void EmptyFragmentAtTheEndOfAMessageAlreadyWholeDeliversNothing()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 23 });
        var endpoint = cube.EndpointOf(s_receiver);
        var flowId = 0x1234_5678_0000_0003UL;
        var chunk = endpoint.FragmentBytes;
        var body = ReliableCube.Payload(23, 0, (2 * chunk) + 100);

        for (var i = 0; i < 3; i++)
        {
            var offset = i * chunk;
            CraftedPackets.DeliverData(cube, s_sender, s_receiver, flowId, (uint)i, (uint)i, body.Length, offset, body.AsSpan(offset, Math.Min(chunk, body.Length - offset)));
        }

        Assert.Equal(body, Assert.Single(cube.InboxOf(s_receiver).Messages).Body);

        // Sequence 3 names the same length and an offset at its end, with no bytes: it starts no message (its offset is not 0).
        CraftedPackets.DeliverData(cube, s_sender, s_receiver, flowId, 3, 3, body.Length, body.Length, []);
        cube.Cube.RunFor(TimeSpan.FromMilliseconds(10));

        Assert.Single(cube.InboxOf(s_receiver).Messages);
        Assert.Equal(1, endpoint.DeliveredMessages);
    }
}
