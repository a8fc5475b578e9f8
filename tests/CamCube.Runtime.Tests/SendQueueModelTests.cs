using CamCube.Packets;

namespace CamCube.Runtime.Tests;

/// <summary>
/// The send queue against a plain reference model: whatever the mix of queueing, taking through
/// any link, removing links and draining, it hands out the same packets in the same order. The
/// model is a list in arrival order; a link takes the oldest packet that may leave on it.
/// </summary>
public class SendQueueModelTests
{
    [Theory]
    [InlineData(1, 8)]
    [InlineData(2, 8)]
    [InlineData(3, 64)]
    [InlineData(4, 64)]
    public void QueueHandsOutWhatAFirstInFirstOutModelWouldUnderRandomOperations(int seed, int packetsMax)
    {
        // With 64 packets, rings fill before the queue's own compaction threshold: they compact
        // themselves when full, and grow only when mostly live.
        var random = new Random(seed);
        var pool = new PacketPool();
        var queue = new SendQueue(packetsMax);
        var model = new List<(Packet Packet, byte Links)>();
        var orphans = new List<Packet>();
        for (var step = 0; step < 20_000; step++)
        {
            var op = random.Next(10);
            if (op < 4 && !queue.IsFull)
            {
                var links = (byte)random.Next(1, 64);
                var packet = pool.Rent();
                queue.Enqueue(packet, links);
                model.Add((packet, links));
            }
            else if (op < 9)
            {
                var link = (LinkDirection)random.Next(LinkDirections.Count);
                var expected = model.FindIndex(e => (e.Links & (1 << (int)link)) != 0);
                var taken = queue.TryTake(link);
                if (expected < 0)
                {
                    Assert.Null(taken);
                }
                else
                {
                    Assert.Same(model[expected].Packet, taken);
                    model.RemoveAt(expected);
                    taken!.Release();
                }
            }
            else if (random.Next(4) == 0)
            {
                var link = (LinkDirection)random.Next(LinkDirections.Count);
                var bit = (byte)(1 << (int)link);
                orphans.Clear();
                queue.RemoveLink(link, orphans);
                var expectedOrphans = model.Where(e => e.Links == bit).Select(e => e.Packet).ToList();
                Assert.Equal(expectedOrphans.Count, orphans.Count);
                Assert.All(expectedOrphans, p => Assert.Contains(p, orphans));
                model = [.. model.Where(e => e.Links != bit).Select(e => (e.Packet, (byte)(e.Links & ~bit)))];
                orphans.ForEach(p => p.Release());
            }

            Assert.Equal(model.Count, queue.Count);
        }

        var drained = new List<Packet>();
        queue.DrainAll(drained);
        Assert.Equal(model.Count, drained.Count);
        Assert.All(model, e => Assert.Contains(e.Packet, drained));
        Assert.Equal(0, queue.Count);
    }

    [Fact]
    public void LonePacketIsNotHandedToALinkItMayNotLeaveOn()
    {
        var queue = new SendQueue(16);
        var packet = new PacketPool().Rent();
        queue.Enqueue(packet, 1 << (int)LinkDirection.PlusX);
        Assert.Null(queue.TryTake(LinkDirection.MinusX));
        Assert.Equal(1, queue.Count);
        Assert.Same(packet, queue.TryTake(LinkDirection.PlusX));
        Assert.Equal(0, queue.Count);
    }

    [Fact]
    public void FirstPacketKeepsItsPlaceAheadOfPacketsQueuedAfterIt()
    {
        var queue = new SendQueue(16);
        var pool = new PacketPool();
        var first = pool.Rent();
        var second = pool.Rent();
        queue.Enqueue(first, (byte)((1 << (int)LinkDirection.PlusX) | (1 << (int)LinkDirection.PlusY)));
        queue.Enqueue(second, 1 << (int)LinkDirection.PlusX);
        Assert.Same(first, queue.TryTake(LinkDirection.PlusX));
        Assert.Null(queue.TryTake(LinkDirection.PlusY));
        Assert.Same(second, queue.TryTake(LinkDirection.PlusX));
    }
}
