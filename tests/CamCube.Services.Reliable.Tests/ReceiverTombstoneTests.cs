using CamCube.Testing;

namespace CamCube.Services.Reliable.Tests;

/// <summary>A flow the receiver ended (refused for want of reassembly memory) is not opened again by a late copy of its first packet.</summary>
public sealed class ReceiverTombstoneTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_sender = new(0, 0, 0);
    private static readonly Coordinate s_receiver = new(1, 1, 1);

    [Fact]
    public void CopyOfAMessageDeliveredBeforeItsFlowWasRefusedIsNotDeliveredAgainWhenItArrivesLate()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 21 }, new ReliableOptions { ReassemblyBytesMax = 100_000 });
        var endpoint = cube.EndpointOf(s_receiver);
        var flowId = 0x1234_5678_0000_0001UL;
        byte[] first = [1, 2, 3];
        var fragment = new byte[endpoint.FragmentBytes];

        // Sequence 0: a message of one packet, delivered. Sequence 1 (sent before any acknowledgement
        // came back): the first packet of a message over the bound, which ends the flow.
        Assert.False(CraftedPackets.DeliverData(cube, s_sender, s_receiver, flowId, 0, 0, first.Length, 0, first));
        Assert.False(CraftedPackets.DeliverData(cube, s_sender, s_receiver, flowId, 1, 0, 200_000, 0, fragment));
        Assert.Single(cube.InboxOf(s_receiver).Messages);

        // The network duplicated sequence 0; the copy arrives now (its first unacknowledged is still 0).
        Assert.False(CraftedPackets.DeliverData(cube, s_sender, s_receiver, flowId, 0, 0, first.Length, 0, first));
        cube.Cube.RunFor(TimeSpan.FromMilliseconds(10));

        var received = Assert.Single(cube.InboxOf(s_receiver).Messages);
        Assert.Equal(first, received.Body);
        Assert.Equal(0, endpoint.HeldPackets);
        Assert.Equal(0, endpoint.ReassemblingBytes);
    }
}
