using CamCube.Testing;

namespace CamCube.Services.Reliable.Tests;

/// <summary>Packets that break the format are dropped, without throwing and without delivering anything the sender did not send.</summary>
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

    [Fact]
    public void DataOfAFlowToAKeyWhoseHomeLiesOutsideTheCubeIsDroppedWithoutThrowing()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 26 });
        var outside = KeyCoordinate.At(new Coordinate(7, 0, 0), 1);

        var kept = CraftedPackets.DeliverData(cube, s_sender, s_receiver, 0x1234_5678_0000_0004UL, 0, 0, 3, 0, [1, 2, 3], outside);
        cube.Cube.RunFor(TimeSpan.FromMilliseconds(10));

        Assert.False(kept);
        Assert.Empty(cube.InboxOf(s_receiver).Messages);
    }

    [Fact]
    public void RequestToAKeyWhoseHomeLiesOutsideTheCubeIsDroppedWithoutThrowing()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 27 });
        var outside = KeyCoordinate.At(new Coordinate(0, 9, 0), 1);

        CraftedPackets.DeliverRequest(cube, s_sender, s_receiver, 0x1234_5678_0000_0005UL, outside, [1, 2, 3]);
        cube.Cube.RunFor(TimeSpan.FromMilliseconds(10));

        Assert.Empty(cube.InboxOf(s_receiver).Requests);
        Assert.Equal(0, cube.EndpointOf(s_receiver).HandledRequests);
    }

    [Fact]
    public void CopyWithoutItsKeyOfARequestRefusedAsNotTheRootIsDroppedWithoutThrowing()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 28 });
        var elsewhere = KeyCoordinate.At(new Coordinate(2, 2, 2), 1);
        var id = 0x1234_5678_0000_0006UL;
        CraftedPackets.DeliverRequest(cube, s_sender, s_receiver, id, elsewhere, [1, 2, 3]);
        var refused = cube.EndpointOf(s_receiver).RefusedRequests;

        CraftedPackets.DeliverRequest(cube, s_sender, s_receiver, id, key: null, [1, 2, 3]);
        cube.Cube.RunFor(TimeSpan.FromMilliseconds(10));

        Assert.Equal(1, refused);
        Assert.Empty(cube.InboxOf(s_receiver).Requests);
    }
}
