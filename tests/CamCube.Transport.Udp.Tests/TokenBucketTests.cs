using CamCube.Runtime.Loops;

namespace CamCube.Transport.Udp.Tests;

/// <summary>The UDP rate limiter's bucket on a manual clock: what it lets through, what it holds back, and when it lets that go.</summary>
public sealed class TokenBucketTests
{
    // 1,024 bytes per second: 1/128 s (78,125 ticks, exact in binary) buys 8 bytes.
    private const long BitsPerSecond = 8 * 1_024;
    private static readonly TimeSpan s_eightBytes = TimeSpan.FromTicks(78_125);

    private readonly ManualTimeProvider _clock = new();

    [Fact]
    public void AFullBucketLetsItsDepthThroughAtOnceAndThenRefusesWhenNoTimeHasPassed()
    {
        var bucket = new TokenBucket(_clock, BitsPerSecond, depthBytes: 24);

        Assert.True(bucket.TryTake(8, out var wait));
        Assert.Equal(TimeSpan.Zero, wait);
        Assert.True(bucket.TryTake(16, out _));

        Assert.False(bucket.TryTake(8, out wait));
        Assert.Equal(s_eightBytes, wait);
    }

    [Fact]
    public void AHeldBackTakeGoesThroughWhenExactlyTheWaitItWasToldHasPassed()
    {
        var bucket = new TokenBucket(_clock, BitsPerSecond, depthBytes: 16);
        Assert.True(bucket.TryTake(16, out _));
        Assert.False(bucket.TryTake(16, out var wait));
        Assert.Equal(2 * s_eightBytes, wait);

        _clock.Advance(wait - TimeSpan.FromTicks(1));
        Assert.False(bucket.TryTake(16, out _));

        _clock.Advance(TimeSpan.FromTicks(1));
        Assert.True(bucket.TryTake(16, out _));
        Assert.False(bucket.TryTake(1, out _));
    }

    [Fact]
    public void TokensAccrueAtTheRateOnlyUpToTheDepthWhenTheLinkIdles()
    {
        var bucket = new TokenBucket(_clock, BitsPerSecond, depthBytes: 24);
        Assert.True(bucket.TryTake(24, out _));

        // An hour idle buys no more than the depth.
        _clock.Advance(TimeSpan.FromHours(1));
        Assert.True(bucket.TryTake(24, out _));
        Assert.False(bucket.TryTake(8, out var wait));
        Assert.Equal(s_eightBytes, wait);

        // Three intervals of 8 bytes buy 24 bytes, in any sizes.
        _clock.Advance(3 * s_eightBytes);
        Assert.True(bucket.TryTake(10, out _));
        Assert.True(bucket.TryTake(14, out _));
        Assert.False(bucket.TryTake(1, out _));
    }

    [Fact]
    public void ARefusedTakeLeavesItsTokensForASmallerOneWhenTheBucketHoldsTooFew()
    {
        var bucket = new TokenBucket(_clock, BitsPerSecond, depthBytes: 24);
        Assert.True(bucket.TryTake(16, out _));

        Assert.False(bucket.TryTake(16, out var wait));
        Assert.Equal(s_eightBytes, wait);
        Assert.True(bucket.TryTake(8, out _));
    }
}
