namespace CamCube.Transport.Simulation.Tests;

public sealed class EventQueueTests
{
    [Theory]
    [InlineData(1, EventQueue.DefaultBucketBits, EventQueue.DefaultWheelBits)]
    [InlineData(2, EventQueue.DefaultBucketBits, EventQueue.DefaultWheelBits)]
    [InlineData(3, 4, 6)]
    [InlineData(4, 2, 6)]
    [InlineData(5, 0, 6)]
    [InlineData(6, 0, 7)]
    public void DequeuesInTimeThenSequenceOrderWhenEnqueuesAndDequeuesInterleave(int seed, int bucketBits, int wheelBits)
    {
        // A model: the same events in a sorted set keyed by (due, sequence). Delays of every scale
        // put events in the near heap, in the wheel's buckets and beyond its horizon, ties on
        // time included.
        var random = new Random(seed);
        var queue = new EventQueue(initialCapacity: 4, bucketBits, wheelBits);
        var model = new SortedSet<(long Due, long Sequence)>();
        long sequence = 0;
        long now = 0;
        for (var step = 0; step < 20_000; step++)
        {
            if (model.Count == 0 || random.Next(3) > 0)
            {
                // Mostly few distinct times, so that many events tie on time and the sequence decides.
                var due = now + (random.Next(4) switch
                {
                    0 => random.Next(8),
                    1 => random.Next(1 << (bucketBits + 1)),
                    2 => random.Next(1 << (bucketBits + wheelBits - 1)),
                    _ => random.Next(1 << (bucketBits + wheelBits + 2)),
                });
                sequence++;
                queue.Enqueue(due, sequence, new SimulationEvent(null!, 0, (int)sequence, null));
                model.Add((due, sequence));
            }
            else
            {
                var expected = model.Min;
                model.Remove(expected);
                Assert.True(queue.TryPeekDue(out var peeked));
                var item = queue.Dequeue(out var due, out var taken);
                Assert.Equal(expected, (due, taken));
                Assert.Equal(expected.Due, peeked);
                Assert.Equal(taken, item.Argument);
                now = due;
            }

            Assert.Equal(model.Count, queue.Count);
        }
    }

    [Fact]
    public void KeepsTheOrderWhenAPeekMovedTheWheelPastTheClockAndAnEarlierEventComes()
    {
        // The engine peeks at the first event, finds it later than its run's end, and may then
        // queue events due before it: they must still come first.
        var queue = new EventQueue(initialCapacity: 4, bucketBits: 4, wheelBits: 6);
        queue.Enqueue(10_000, 1, new SimulationEvent(null!, 0, 1, null));
        Assert.True(queue.TryPeekDue(out var due));
        Assert.Equal(10_000, due);
        queue.Enqueue(20, 2, new SimulationEvent(null!, 0, 2, null));
        queue.Enqueue(9_000, 3, new SimulationEvent(null!, 0, 3, null));
        queue.Enqueue(10_000, 4, new SimulationEvent(null!, 0, 4, null));
        Assert.Equal(2, queue.Dequeue(out _, out _).Argument);
        Assert.Equal(3, queue.Dequeue(out _, out _).Argument);
        Assert.Equal(1, queue.Dequeue(out _, out _).Argument);
        Assert.Equal(4, queue.Dequeue(out _, out _).Argument);
        Assert.Equal(0, queue.Count);
    }

    [Fact]
    public void IsEmptyAgainWhenEveryEventWasTakenAfterGrowing()
    {
        var queue = new EventQueue(initialCapacity: 1);
        for (var i = 0; i < 100; i++)
        {
            queue.Enqueue(100 - i, i + 1, new SimulationEvent(null!, 0, i, null));
        }

        var order = new List<int>();
        while (queue.TryPeekDue(out _))
        {
            order.Add(queue.Dequeue(out _, out _).Argument);
        }

        Assert.Equal(Enumerable.Range(0, 100).Reverse(), order);
        Assert.Equal(0, queue.Count);
        Assert.False(queue.TryPeekDue(out _));
    }
}
