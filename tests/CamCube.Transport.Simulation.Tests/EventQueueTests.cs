namespace CamCube.Transport.Simulation.Tests;

public sealed class EventQueueTests
{
    [Theory]
    [InlineData(1, EventQueue.DefaultNearWindowNanoseconds)]
    [InlineData(2, EventQueue.DefaultNearWindowNanoseconds)]
    [InlineData(3, EventQueue.DefaultNearWindowNanoseconds)]
    [InlineData(4, 3)]
    [InlineData(5, 1)]
    [InlineData(6, 0)]
    public void DequeuesInTimeThenSequenceOrderWhenEnqueuesAndDequeuesInterleave(int seed, long nearWindowNanoseconds)
    {
        // A model: the same events in a sorted set keyed by (due, sequence). Small near windows
        // split the events between the near and the far heap, ties on time included.
        var random = new Random(seed);
        var queue = new EventQueue(initialCapacity: 4, nearWindowNanoseconds);
        var model = new SortedSet<(long Due, long Sequence)>();
        long sequence = 0;
        long now = 0;
        for (var step = 0; step < 20_000; step++)
        {
            if (model.Count == 0 || random.Next(3) > 0)
            {
                // Few distinct times, so that many events tie on time and the sequence decides.
                var due = now + random.Next(8);
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
