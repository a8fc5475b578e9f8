using CamCube.Packets;

namespace CamCube.Services.Reliable.Tests;

public sealed class ReceiveFlowTests
{
    private readonly PacketPool _pool = new(pooledPacketsMax: 16, singleThreaded: true);

    private ReceiveFlow Create()
    {
        var flow = new ReceiveFlow(windowPackets: 8);
        flow.Reset(new Coordinate(1, 2, 3), 42, key: null, now: 0);
        return flow;
    }

    [Fact]
    public void SackBlocksListTheHeldRunsInOrderWhenPacketsArriveAhead()
    {
        var flow = Create();
        foreach (var s in new uint[] { 2, 3, 5, 7 })
        {
            Assert.True(flow.TryHold(s, _pool.Rent()));
        }

        var blocks = new uint[8];
        var count = flow.WriteSackBlocks(blocks);

        Assert.Equal(3, count);
        Assert.Equal([2u, 4u, 5u, 6u, 7u, 8u], blocks[..6]);
    }

    [Fact]
    public void SackBlocksStopAtTheBufferWhenMoreRunsAreHeldThanFit()
    {
        var flow = Create();
        foreach (var s in new uint[] { 1, 3, 5, 7 })
        {
            flow.TryHold(s, _pool.Rent());
        }

        var blocks = new uint[4];

        Assert.Equal(2, flow.WriteSackBlocks(blocks));
        Assert.Equal([1u, 2u, 3u, 4u], blocks);
    }

    [Fact]
    public void AdvanceHandsOutHeldPacketsInSequenceWhenTheHoleFills()
    {
        var flow = Create();
        var one = _pool.Rent();
        var two = _pool.Rent();
        var four = _pool.Rent();
        flow.TryHold(1, one);
        flow.TryHold(2, two);
        flow.TryHold(4, four);

        // Sequence 0 arrives and is consumed by the caller.
        Assert.Same(one, flow.Advance());
        Assert.Same(two, flow.Advance());
        Assert.Null(flow.Advance());
        Assert.Equal(3u, flow.Expected);
        Assert.Equal(1, flow.HeldCount);
        Assert.Equal(1, flow.Offset(4));
    }

    [Fact]
    public void HoldRefusesADuplicateWhenTheSequenceIsHeldAlready()
    {
        var flow = Create();
        flow.TryHold(3, _pool.Rent());
        var duplicate = _pool.Rent();

        Assert.False(flow.TryHold(3, duplicate));
        Assert.Equal(1, flow.HeldCount);
        duplicate.Release();
    }

    [Fact]
    public void OffsetClassifiesDuplicatesAndPacketsBeyondTheWindowWhenExpectedMoved()
    {
        var flow = Create();
        flow.Advance();
        flow.Advance();

        Assert.Equal(-1, flow.Offset(1));
        Assert.False(flow.InWindow(flow.Offset(1)));
        Assert.True(flow.InWindow(flow.Offset(9)));
        Assert.False(flow.InWindow(flow.Offset(10)));
    }

    [Fact]
    public void ReleaseHeldReturnsEveryHeldPacketToThePoolWhenTheFlowIsForgotten()
    {
        var flow = Create();
        var free = _pool.FreeCount;
        flow.TryHold(2, _pool.Rent());
        flow.TryHold(6, _pool.Rent());

        flow.ReleaseHeld();

        Assert.Equal(0, flow.HeldCount);
        Assert.Equal(free + 2, _pool.FreeCount);
    }
}
