namespace CamCube.Transport.Udp.Tests;

public sealed class ReplayWindowTests
{
    [Fact]
    public void EachCounterIsAcceptedOnce()
    {
        var window = new ReplayWindow();

        Assert.True(window.TryAccept(5));
        Assert.False(window.IsFresh(5));
        Assert.False(window.TryAccept(5));
        Assert.True(window.TryAccept(6));
    }

    [Fact]
    public void CountersOutOfOrderWithinTheWindowAreAcceptedOnce()
    {
        var window = new ReplayWindow();
        Assert.True(window.TryAccept(10_000));

        Assert.True(window.TryAccept(10_000 - ReplayWindow.WindowCounters + 1));
        Assert.True(window.TryAccept(9_999));
        Assert.False(window.TryAccept(9_999));
        Assert.False(window.TryAccept(10_000 - ReplayWindow.WindowCounters));
    }

    [Fact]
    public void AJumpFarAheadForgetsOlderCountersAndRefusesThemAsTooOld()
    {
        var window = new ReplayWindow();
        for (ulong c = 1; c <= 2_000; c++)
        {
            Assert.True(window.TryAccept(c));
        }

        Assert.True(window.TryAccept(1_000_000));

        Assert.False(window.IsFresh(2_000));
        Assert.True(window.TryAccept(1_000_000 - 5));
        Assert.True(window.TryAccept(1_000_001));
    }

    [Fact]
    public void EveryCounterInASlidingRunIsJudgedAsAnExactModelJudgesIt()
    {
        var window = new ReplayWindow();
        var accepted = new HashSet<ulong>();
        var random = new Random(7);
        ulong newest = 0;
        ulong center = 5_000;
        for (var i = 0; i < 20_000; i++)
        {
            center += (ulong)random.Next(0, 3);
            var counter = center - (ulong)random.Next(0, 1_200) + (ulong)random.Next(0, 40);
            var expected = accepted.Count == 0 || (!accepted.Contains(counter) && (counter > newest || newest - counter < ReplayWindow.WindowCounters));
            Assert.Equal(expected, window.TryAccept(counter));
            if (expected)
            {
                accepted.Add(counter);
                newest = Math.Max(newest, counter);
            }
        }
    }
}
