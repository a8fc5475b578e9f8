namespace CamCube.Transport.Simulation.Tests;

public sealed class EventQueueTests
{
    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void DequeuesInTimeThenSequenceOrderWhenEnqueuesAndDequeuesInterleave(int seed)
    {
        // A model: the same events in a sorted set keyed by (due, sequence).
        var random = new Random(seed);
        var queue = new EventQueue(initialCapacity: 4);
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
