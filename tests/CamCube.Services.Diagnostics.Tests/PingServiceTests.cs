using CamCube.Testing;

namespace CamCube.Services.Diagnostics.Tests;

public class PingServiceTests
{
    [Theory]
    [InlineData(1, 0, 0, 1)]
    [InlineData(2, 2, 2, 6)]
    [InlineData(3, 1, 0, 2)]
    public async Task PingReportsHopCountsBothWaysAndARoundTripTime(int x, int y, int z, int distance)
    {
        var cube = InMemoryCube.Start(new TorusShape(4, 4, 4), n => n.Register(new PingService()));
        var ping = cube[new Coordinate(0, 0, 0)].GetService<PingService>()!.PingAsync(new Coordinate(x, y, z), TimeSpan.FromSeconds(1));
        cube.RunUntil(() => ping.IsCompleted, TimeSpan.FromSeconds(2));
        var reply = await ping;
        Assert.False(reply.Lost);
        Assert.Equal(distance, reply.OutboundHops);
        Assert.Equal(distance, reply.ReturnHops);
        Assert.True(reply.RoundTripTime >= TimeSpan.Zero);
    }

    [Fact]
    public async Task PingToADeadServerIsLostAfterTheTimeout()
    {
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3), n => n.Register(new PingService()));
        cube.Kill(new Coordinate(1, 1, 1));
        var start = cube.Clock.Elapsed;
        var ping = cube[new Coordinate(0, 0, 0)].GetService<PingService>()!.PingAsync(new Coordinate(1, 1, 1), TimeSpan.FromMilliseconds(200));
        Assert.True(cube.RunUntil(() => ping.IsCompleted, TimeSpan.FromSeconds(2)));
        Assert.True((await ping).Lost);
        Assert.InRange(cube.Clock.Elapsed - start, TimeSpan.FromMilliseconds(200), TimeSpan.FromMilliseconds(300));
    }

    [Fact]
    public async Task PingToItselfTakesNoHop()
    {
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3), n => n.Register(new PingService()));
        var ping = cube[new Coordinate(2, 2, 2)].GetService<PingService>()!.PingAsync(new Coordinate(2, 2, 2), TimeSpan.FromSeconds(1));
        cube.RunUntil(() => ping.IsCompleted, TimeSpan.FromSeconds(1));
        var reply = await ping;
        Assert.False(reply.Lost);
        Assert.Equal(0, reply.OutboundHops);
        Assert.Equal(0, reply.ReturnHops);
    }

    [Fact]
    public async Task ASeriesSendsEachPingAfterThePreviousReplyAndReturnsEveryReplyInOrder()
    {
        var cube = InMemoryCube.Start(new TorusShape(4, 4, 4), n => n.Register(new PingService()));
        var service = cube[new Coordinate(0, 0, 0)].GetService<PingService>()!;
        var series = service.PingSeriesAsync(new Coordinate(0, 2, 0), 5, TimeSpan.FromSeconds(1));
        Assert.True(cube.RunUntil(() => series.IsCompleted, TimeSpan.FromSeconds(2)));

        var replies = await series;
        Assert.Equal(5, replies.Length);
        Assert.All(replies, r => Assert.False(r.Lost));
        Assert.All(replies, r => Assert.Equal((2, 2), (r.OutboundHops, r.ReturnHops)));
        Assert.Equal(0, service.LateReplies);
    }

    [Fact]
    public async Task ASeriesToADeadServerReportsEachPingLostAfterItsOwnTimeout()
    {
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3), n => n.Register(new PingService()));
        cube.Kill(new Coordinate(1, 1, 1));
        var start = cube.Clock.Elapsed;
        var series = cube[new Coordinate(0, 0, 0)].GetService<PingService>()!.PingSeriesAsync(new Coordinate(1, 1, 1), 3, TimeSpan.FromMilliseconds(200));
        Assert.True(cube.RunUntil(() => series.IsCompleted, TimeSpan.FromSeconds(2)));

        Assert.All(await series, r => Assert.True(r.Lost));
        Assert.InRange(cube.Clock.Elapsed - start, TimeSpan.FromMilliseconds(600), TimeSpan.FromMilliseconds(700));
    }

    [Fact]
    public void ASeriesOfNoPingsIsRefused()
    {
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3), n => n.Register(new PingService()));
        var service = cube[new Coordinate(0, 0, 0)].GetService<PingService>()!;
        Assert.Throws<ArgumentOutOfRangeException>(() => { _ = service.PingSeriesAsync(new Coordinate(1, 0, 0), 0, TimeSpan.FromSeconds(1)); });
    }

    [Fact]
    public void ASeriesAllocatesNothingPerPingButItsReply()
    {
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3), n => n.Register(new PingService()));
        var service = cube[new Coordinate(0, 0, 0)].GetService<PingService>()!;
        void Series(int count)
        {
            var series = service.PingSeriesAsync(new Coordinate(1, 0, 0), count, TimeSpan.FromSeconds(1));
            Assert.True(cube.RunUntil(() => series.IsCompleted, TimeSpan.FromSeconds(5)));

            // Past the last timeout, so the test clock's heap sheds the series' stale timer entries (its own growth is not the service's).
            cube.RunUntil(() => false, TimeSpan.FromSeconds(1.5));
        }

        Series(1_100);
        var few = AllocationProbe.OnCurrentThread(() => Series(100));
        var many = AllocationProbe.OnCurrentThread(() => Series(1_100));

        // 1,000 more pings: 1,000 more replies in the result array, nothing else.
        Assert.Equal(1_000 * System.Runtime.CompilerServices.Unsafe.SizeOf<PingReply>(), many - few);
    }
}
