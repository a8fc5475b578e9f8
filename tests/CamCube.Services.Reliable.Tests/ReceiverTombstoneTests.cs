using CamCube.Testing;

namespace CamCube.Services.Reliable.Tests;

/// <summary>A flow the receiver ended or turned away (refused for want of reassembly memory, or not the key's root) is not opened by a late copy of its first packet.</summary>
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

        // The ended flow is kept only until it is idle.
        Assert.Equal(1, endpoint.ReceiveFlowCount);
        cube.Cube.RunFor(endpoint.Options.ReceiveFlowIdleTimeout + TimeSpan.FromSeconds(1));
        Assert.Equal(0, endpoint.ReceiveFlowCount);
    }

    [Fact]
    public void CopyOfAKeyFlowsFirstPacketAnsweredNotRootIsNotDeliveredWhenTheServerHasBecomeTheRootSince()
    {
        // The stand-in root of the key answers NotRoot while the home server is up: the sender moves the
        // message to the home server. A copy of the first packet (sent again on a timeout, or duplicated)
        // that reaches the stand-in after the home server died again must not be delivered there too.
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 22 });
        var key = KeyCoordinate.At(s_receiver, 5);
        cube.Cube.Kill(s_receiver);
        Assert.True(cube.Cube.RunUntil(cube.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        var standIn = cube.Cube.TrueRoot(key);
        var sender = standIn == s_sender ? new Coordinate(2, 2, 2) : s_sender;
        cube.Cube.Restart(s_receiver);
        Assert.True(cube.Cube.RunUntil(cube.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        Assert.Equal(s_receiver, cube.Cube.TrueRoot(key));
        var flowId = 0x1234_5678_0000_0002UL;
        byte[] body = [4, 5, 6];

        Assert.False(CraftedPackets.DeliverData(cube, sender, standIn, flowId, 0, 0, body.Length, 0, body, key));
        Assert.Empty(cube.InboxOf(standIn).Messages);

        cube.Cube.Kill(s_receiver);
        Assert.True(cube.Cube.RunUntil(cube.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        Assert.Equal(standIn, cube.Cube.TrueRoot(key));
        Assert.False(CraftedPackets.DeliverData(cube, sender, standIn, flowId, 0, 0, body.Length, 0, body, key));
        cube.Cube.RunFor(TimeSpan.FromMilliseconds(10));

        Assert.Empty(cube.InboxOf(standIn).Messages);
        Assert.Equal(1, cube.EndpointOf(standIn).ReceiveFlowCount);
        cube.Cube.RunFor(cube.EndpointOf(standIn).Options.ReceiveFlowIdleTimeout + TimeSpan.FromSeconds(1));
        Assert.Equal(0, cube.EndpointOf(standIn).ReceiveFlowCount);
    }
}
