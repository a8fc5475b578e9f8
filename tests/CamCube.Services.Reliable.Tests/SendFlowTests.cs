namespace CamCube.Services.Reliable.Tests;

public sealed class SendFlowTests
{
    private const int Window = 4;
    private const int Fragment = 10;

    private static SendFlow Create() => new(Window, Fragment, new RtoEstimator(initialTicks: 1_000, minimumTicks: 10, maximumTicks: 100_000, granularityTicks: 1));

    private static OutgoingMessage Message(int length) => new(new byte[length], owner: null, Math.Max(1, (length + Fragment - 1) / Fragment));

    [Fact]
    public void NextFragmentsAMessageInOrderUntilTheWindowIsFullWhenNothingIsAcknowledged()
    {
        var flow = Create();
        var first = Message(35);
        var second = Message(20);
        flow.Enqueue(first);
        flow.Enqueue(second);

        var sent = new List<(uint Sequence, int Offset, int Length, bool Second)>();
        while (flow.TryNext(now: 5, out var sequence, out var slot))
        {
            sent.Add((sequence, slot.Offset, slot.Length, ReferenceEquals(slot.Message, second)));
        }

        Assert.Equal([(0u, 0, 10, false), (1u, 10, 10, false), (2u, 20, 10, false), (3u, 30, 5, false)], sent);
        Assert.Equal(Window, flow.InFlight);
        Assert.False(flow.HasPacketToSend);
    }

    [Fact]
    public void CumulativeAckCompletesOnlyWhollyAcknowledgedMessagesWhenItArrives()
    {
        var flow = Create();
        var first = Message(15);
        var second = Message(20);
        flow.Enqueue(first);
        flow.Enqueue(second);
        while (flow.TryNext(now: 0, out _, out _))
        {
        }

        Assert.True(flow.OnAck(now: 100, cumulative: 2, trigger: 1, []));
        Assert.True(first.Task.IsCompletedSuccessfully);
        Assert.False(second.Task.IsCompleted);

        Assert.True(flow.OnAck(now: 110, cumulative: 3, trigger: 2, []));
        Assert.False(second.Task.IsCompleted);

        Assert.True(flow.OnAck(now: 120, cumulative: 4, trigger: 3, []));
        Assert.True(second.Task.IsCompletedSuccessfully);
        Assert.Equal(0, flow.MessageCount);
        Assert.Equal(0, flow.InFlight);
    }

    [Fact]
    public void SackBlocksSpanningHalfTheSequenceSpaceMarkOnlyWhatIsInFlightWhenMalformed()
    {
        var flow = Create();
        flow.Enqueue(Message(35));
        while (flow.TryNext(now: 0, out _, out _))
        {
        }

        // Four blocks of 2^31 - 1 sequences each: walked one by one, billions of steps on the node's loop.
        uint[] blocks = [1, 0x8000_0000, 1, 0x8000_0000, 2, 0x8000_0000, 3, 0x8000_0000];
        Assert.False(flow.OnAck(now: 100, cumulative: 0, trigger: 1, blocks));

        // Packets 1 to 3 are selectively acknowledged: after a timeout only packet 0 is sent again.
        flow.OnTimeout(now: 5_000);
        var resent = new List<uint>();
        while (flow.TryNext(now: 5_001, out var sequence, out _))
        {
            resent.Add(sequence);
        }

        Assert.Equal([0u], resent);
    }

    [Fact]
    public void AckOutsideWhatWasSentIsIgnoredWhenItComesFromAnEarlierLife()
    {
        var flow = Create();
        flow.Enqueue(Message(10));
        flow.TryNext(0, out _, out _);

        Assert.False(flow.OnAck(now: 10, cumulative: 7, trigger: 6, []));
        Assert.Equal(0u, flow.FirstUnacked);
        Assert.Equal(1, flow.InFlight);
    }

    [Fact]
    public void SackedHoleIsSentAgainFirstWhenThreeLaterPacketsArrivedAndARoundTripPassed()
    {
        var flow = Create();
        flow.Enqueue(Message(40));
        while (flow.TryNext(now: 0, out _, out _))
        {
        }

        // Packets 1..3 arrived, 0 did not; the sample of packet 3 gives SRTT 100, so a packet is
        // deemed lost once it is 125 ticks old (a round trip and a quarter).
        Assert.False(flow.OnAck(now: 100, cumulative: 0, trigger: 3, [1, 4]));
        Assert.False(flow.HasPacketToSend);
        Assert.False(flow.OnAck(now: 126, cumulative: 0, trigger: 3, [1, 4]));
        Assert.True(flow.HasPacketToSend);

        Assert.True(flow.TryNext(now: 130, out var sequence, out var slot));
        Assert.Equal(0u, sequence);
        Assert.True(slot.Retransmitted);
        Assert.Equal(130, slot.SentTimestamp);
        Assert.False(flow.TryNext(now: 131, out _, out _));
    }

    [Fact]
    public void HoleIsNotDeemedLostWhenFewerThanThreeLaterPacketsArrived()
    {
        var flow = Create();
        flow.Enqueue(Message(40));
        while (flow.TryNext(now: 0, out _, out _))
        {
        }

        flow.OnAck(now: 100, cumulative: 0, trigger: 2, [1, 3]);

        Assert.False(flow.HasPacketToSend);
    }

    [Fact]
    public void RetransmittedPacketGivesNoRoundTripSampleWhenAcknowledged()
    {
        var flow = Create();
        flow.Enqueue(Message(10));
        flow.TryNext(now: 0, out _, out _);
        Assert.Equal(1, flow.OnTimeout(now: 1_000));
        flow.TryNext(now: 1_000, out _, out var slot);
        Assert.True(slot.Retransmitted);

        flow.OnAck(now: 1_050, cumulative: 1, trigger: 0, []);

        // Karn's rule: the ambiguous sample is not taken; the backed-off timeout stays.
        Assert.False(flow.Rto.HasSample);
        Assert.Equal(2_000, flow.Rto.TimeoutTicks);
    }

    [Fact]
    public void TimeoutMarksTheFirstUnackedAndEveryPacketOlderThanTheTimeoutWhenItExpires()
    {
        var flow = Create();
        flow.Enqueue(Message(40));
        flow.TryNext(now: 0, out _, out _);
        flow.TryNext(now: 0, out _, out _);
        flow.TryNext(now: 600, out _, out _);
        flow.TryNext(now: 900, out _, out _);

        var marked = flow.OnTimeout(now: 1_000);

        // 0 and 1 are a timeout old (1,000 ticks); 2 and 3 are younger.
        Assert.Equal(2, marked);
        Assert.True(flow.TryNext(1_000, out var first, out _));
        Assert.True(flow.TryNext(1_000, out var second, out _));
        Assert.False(flow.TryNext(1_000, out _, out _));
        Assert.Equal([0u, 1u], [first, second]);
        Assert.Equal(2_000, flow.Rto.TimeoutTicks);
    }

    [Fact]
    public void RestartResendsMessagesNotWhollySentAndReportsTheOthersWhenTheFlowMoves()
    {
        var flow = Create();
        var whole = Message(10);
        var partial = Message(50);
        var waiting = Message(5);
        flow.Enqueue(whole);
        flow.Enqueue(partial);
        flow.Enqueue(waiting);
        while (flow.TryNext(now: 0, out _, out _))
        {
        }

        var unsure = new List<OutgoingMessage>();
        flow.Restart(unsure);

        Assert.Same(whole, Assert.Single(unsure));
        Assert.Equal(2, flow.MessageCount);
        Assert.Equal(0, flow.InFlight);
        Assert.True(flow.TryNext(now: 10, out var sequence, out var slot));
        Assert.Equal(0u, sequence);
        Assert.Same(partial, slot.Message);
        Assert.Equal(0, slot.Offset);
    }

    [Fact]
    public void EmptyMessageTakesOnePacketOfNoBytesWhenSent()
    {
        var flow = Create();
        var empty = Message(0);
        flow.Enqueue(empty);

        Assert.True(flow.TryNext(now: 0, out var sequence, out var slot));
        Assert.Equal((0u, 0, 0), (sequence, slot.Offset, slot.Length));
        flow.OnAck(now: 5, cumulative: 1, trigger: 0, []);
        Assert.True(empty.Task.IsCompletedSuccessfully);
    }

    [Fact]
    public void ProbingFlowSendsOnePacketUntilTheFirstAcknowledgementWhenItIsNewToAKey()
    {
        var flow = Create();
        flow.Probing = true;
        flow.Enqueue(Message(40));

        Assert.True(flow.TryNext(now: 0, out _, out _));
        Assert.False(flow.TryNext(now: 0, out _, out _));

        flow.OnAck(now: 10, cumulative: 1, trigger: 0, []);

        Assert.False(flow.Probing);
        var sent = 0;
        while (flow.TryNext(now: 10, out _, out _))
        {
            sent++;
        }

        Assert.Equal(3, sent);
    }

    [Fact]
    public void RestartResendsAWhollySentMessageWhenOneOfItsPacketsWasDroppedOnTheWay()
    {
        var flow = Create();
        var message = Message(20);
        flow.Enqueue(message);
        flow.TryNext(now: 0, out _, out _);
        flow.TryNext(now: 0, out _, out _);

        flow.MarkUndelivered(1);
        var unsure = new List<OutgoingMessage>();
        flow.Restart(unsure);

        Assert.Empty(unsure);
        Assert.Equal(1, flow.MessageCount);
    }
}
