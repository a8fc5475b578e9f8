using CamCube.Testing;
using CamCube.Transport.Faults;

namespace CamCube.Services.Reliable.Tests;

public sealed class ReassemblyBoundTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_sender = new(0, 0, 0);
    private static readonly Coordinate s_receiver = new(1, 1, 1);

    [Fact]
    public async Task SendFailsWithReceiverFullAndTheReceiverKeepsTakingMessagesWhenAMessageWouldGoPastItsReassemblyBound()
    {
        var cube = ReliableCube.InMemory(s_shape, new ReliableOptions { ReassemblyBytesMax = 100_000 });
        var sender = cube.EndpointOf(s_sender);

        var tooLarge = sender.SendAsync(s_receiver, new byte[200_000]);
        Assert.True(cube.Cube.RunUntil(() => tooLarge.IsCompleted, TimeSpan.FromSeconds(5)));

        var error = await Assert.ThrowsAsync<ReliableTransferException>(() => tooLarge);
        Assert.Equal(ReliableFailure.ReceiverFull, error.Reason);
        Assert.Equal("Server (1,1,1) refused the message: the messages it reassembles already hold its limit of bytes (ReassemblyBytesMax).", error.Message);
        Assert.Empty(cube.InboxOf(s_receiver).Messages);

        var fits = ReliableCube.Payload(1, 0, 60_000);
        var sent = sender.SendAsync(s_receiver, fits);
        Assert.True(cube.Cube.RunUntil(() => sent.IsCompleted, TimeSpan.FromSeconds(5)));

        await sent;
        Assert.Equal(fits, Assert.Single(cube.InboxOf(s_receiver).Messages).Body);
        Assert.Equal(0, cube.EndpointOf(s_receiver).ReassemblingBytes);
    }

    [Fact]
    public async Task SecondMessageIsRefusedWhileTheFirstHoldsTheBoundWhenTwoSendersOverlap()
    {
        var cube = ReliableCube.InMemory(s_shape, new ReliableOptions { ReassemblyBytesMax = 100_000 });
        var other = new Coordinate(2, 0, 0);

        var first = cube.EndpointOf(s_sender).SendAsync(s_receiver, new byte[70_000]);
        var second = cube.EndpointOf(other).SendAsync(s_receiver, new byte[70_000]);
        Assert.True(cube.Cube.RunUntil(() => first.IsCompleted && second.IsCompleted, TimeSpan.FromSeconds(5)));

        // Each began before the other ended, so exactly one of them fits under the bound.
        var failed = Assert.Single(new[] { first, second }, t => t.IsFaulted);
        var error = await Assert.ThrowsAsync<ReliableTransferException>(() => failed);
        Assert.Equal(ReliableFailure.ReceiverFull, error.Reason);
        Assert.Single(cube.InboxOf(s_receiver).Messages);
        Assert.Equal(0, cube.EndpointOf(s_receiver).ReassemblingBytes);
    }

    [Fact]
    public async Task MessageDeliveredJustBeforeARefusedOneCompletesWhenItsPacketArrivedAfterTheRefusedOnesFirstPacket()
    {
        // The one-packet message is held back on its way in, so the large one's first packet waits
        // for it; when it comes, it is delivered and the large one refused at once, with no
        // acknowledgement between: the refusal must say the first message arrived.
        var delayed = new FaultOptions { Delay = TimeSpan.FromMicroseconds(1) };
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 24, Faults = delayed }, new ReliableOptions { ReassemblyBytesMax = 100_000 });
        var sender = cube.EndpointOf(s_sender);
        var faults = ((SimulatedCube)cube.Cube).FaultsAt(s_receiver)!;
        faults.Faults = delayed with { ReorderProbability = 1, ReorderDelay = TimeSpan.FromMilliseconds(1) };

        var small = sender.SendAsync(s_receiver, new byte[] { 1, 2, 3 });
        var large = sender.SendAsync(s_receiver, new byte[200_000]);
        Assert.True(cube.Cube.RunUntil(() => faults.FramesReordered >= 1, TimeSpan.FromSeconds(1)));
        faults.Faults = delayed;
        Assert.True(cube.Cube.RunUntil(() => small.IsCompleted && large.IsCompleted, TimeSpan.FromSeconds(5)));

        Assert.Equal(new byte[] { 1, 2, 3 }, Assert.Single(cube.InboxOf(s_receiver).Messages).Body);
        await small;
        var error = await Assert.ThrowsAsync<ReliableTransferException>(() => large);
        Assert.Equal(ReliableFailure.ReceiverFull, error.Reason);
    }

    [Fact]
    public async Task SendFailsWithMessageTooLargeWhenTheMessageIsOverTheReceiversLimitThoughWithinTheSenders()
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = 25 }, server => server == s_receiver ? new ReliableOptions { MessageBytesMax = 50_000 } : null);
        var sender = cube.EndpointOf(s_sender);

        var tooLarge = sender.SendAsync(s_receiver, new byte[100_000]);
        Assert.True(cube.Cube.RunUntil(() => tooLarge.IsCompleted, TimeSpan.FromSeconds(5)));

        var error = await Assert.ThrowsAsync<ReliableTransferException>(() => tooLarge);
        Assert.Equal(ReliableFailure.MessageTooLarge, error.Reason);
        Assert.Empty(cube.InboxOf(s_receiver).Messages);

        var fits = ReliableCube.Payload(25, 0, 40_000);
        var sent = sender.SendAsync(s_receiver, fits);
        Assert.True(cube.Cube.RunUntil(() => sent.IsCompleted, TimeSpan.FromSeconds(5)));
        await sent;
        Assert.Equal(fits, Assert.Single(cube.InboxOf(s_receiver).Messages).Body);
    }
}
