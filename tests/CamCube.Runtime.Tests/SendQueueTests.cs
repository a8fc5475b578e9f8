using CamCube.Packets;

namespace CamCube.Runtime.Tests;

public class SendQueueTests
{
    [Fact]
    public void PacketIsTakenOnceByWhicheverEligibleLinkPollsFirst()
    {
        var queue = new SendQueue(16);
        var packet = new PacketPool().Rent();
        queue.Enqueue(packet, (byte)((1 << (int)LinkDirection.PlusX) | (1 << (int)LinkDirection.PlusY)));
        Assert.Same(packet, queue.TryTake(LinkDirection.PlusY));
        Assert.Null(queue.TryTake(LinkDirection.PlusX));
        Assert.Equal(0, queue.Count);
    }

    [Fact]
    public void StaleEntryIsNotRevivedWhenThePooledPacketSitsInAnotherQueue()
    {
        // The packet leaves queue A on +x; its entry in A's +y ring is stale. Reused from the pool,
        // it then waits in queue B. A's +y ring must not hand it out: tickets are unique per process.
        var a = new SendQueue(16);
        var b = new SendQueue(16);
        var packet = new PacketPool().Rent();
        a.Enqueue(packet, (byte)((1 << (int)LinkDirection.PlusX) | (1 << (int)LinkDirection.PlusY)));
        Assert.Same(packet, a.TryTake(LinkDirection.PlusX));
        b.Enqueue(packet, 1 << (int)LinkDirection.PlusZ);
        Assert.Null(a.TryTake(LinkDirection.PlusY));
        Assert.Equal(0, a.Count);
        Assert.Same(packet, b.TryTake(LinkDirection.PlusZ));
    }

    [Fact]
    public void RemovingALinkOrphansOnlyPacketsThatHadNoOtherLink()
    {
        var queue = new SendQueue(16);
        var pool = new PacketPool();
        var onlyX = pool.Rent();
        var xOrY = pool.Rent();
        queue.Enqueue(onlyX, 1 << (int)LinkDirection.PlusX);
        queue.Enqueue(xOrY, (byte)((1 << (int)LinkDirection.PlusX) | (1 << (int)LinkDirection.PlusY)));
        var orphans = new List<Packet>();
        queue.RemoveLink(LinkDirection.PlusX, orphans);
        Assert.Same(onlyX, Assert.Single(orphans));
        Assert.Same(xOrY, queue.TryTake(LinkDirection.PlusY));
    }
}
