using CamCube.Testing;

namespace CamCube.Services.Diagnostics.Tests;

public class PingServiceTests
{
    [Theory]
    [InlineData(1, 0, 0, 1)]
    [InlineData(2, 2, 2, 6)]
    [InlineData(3, 1, 0, 2)]
    public async Task ReportsHopCountsBothWaysAndTheExactRoundTripTimeWhenTheReplyComesBack(int x, int y, int z, int distance)
    {
        var cube = InMemoryCube.Start(new TorusShape(4, 4, 4), n => n.Register(new PingService()));
        var ping = cube[new Coordinate(0, 0, 0)].GetService<PingService>()!.PingAsync(new Coordinate(x, y, z), TimeSpan.FromSeconds(1));

        // In-memory links take no virtual time: the round trip is exactly the time the test lets pass before it runs the cube.
        cube.Clock.Advance(TimeSpan.FromMilliseconds(7));
        Assert.True(cube.RunUntil(() => ping.IsCompleted, TimeSpan.FromSeconds(2)), "The ping neither came back nor timed out.");

        var reply = await ping;
        Assert.Equal(new PingReply(new Coordinate(x, y, z), Lost: false, TimeSpan.FromMilliseconds(7), distance, distance), reply);
    }

    [Fact]
    public async Task PingToADeadServerIsLostWhenItsTimeoutHasPassed()
    {
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3), n => n.Register(new PingService()));
        cube.Kill(new Coordinate(1, 1, 1));
        var start = cube.Clock.Elapsed;
        var ping = cube[new Coordinate(0, 0, 0)].GetService<PingService>()!.PingAsync(new Coordinate(1, 1, 1), TimeSpan.FromMilliseconds(200));

        Assert.True(cube.RunUntil(() => ping.IsCompleted, TimeSpan.FromSeconds(2)), "The ping did not time out.");

        Assert.Equal(new PingReply(new Coordinate(1, 1, 1), Lost: true, TimeSpan.Zero, 0, 0), await ping);
        Assert.Equal(TimeSpan.FromMilliseconds(200), cube.Clock.Elapsed - start);
    }

    [Fact]
    public async Task PingToItselfTakesNoHopWhenItsTargetIsItsOwnServer()
    {
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3), n => n.Register(new PingService()));
        var ping = cube[new Coordinate(2, 2, 2)].GetService<PingService>()!.PingAsync(new Coordinate(2, 2, 2), TimeSpan.FromSeconds(1));

        Assert.True(cube.RunUntil(() => ping.IsCompleted, TimeSpan.FromSeconds(2)), "The ping neither came back nor timed out.");

        Assert.Equal(new PingReply(new Coordinate(2, 2, 2), Lost: false, TimeSpan.Zero, 0, 0), await ping);
    }

    [Fact]
    public async Task ASeriesReturnsEveryReplyWithItsHopCountsWhenTheTargetRunsThePingService()
    {
        var cube = InMemoryCube.Start(new TorusShape(4, 4, 4), n => n.Register(new PingService()));
        var service = cube[new Coordinate(0, 0, 0)].GetService<PingService>()!;
        var series = service.PingSeriesAsync(new Coordinate(0, 2, 0), 5, TimeSpan.FromSeconds(1));

        Assert.True(cube.RunUntil(() => series.IsCompleted, TimeSpan.FromSeconds(2)), "The series did not finish.");

        Assert.Equal(Enumerable.Repeat(new PingReply(new Coordinate(0, 2, 0), Lost: false, TimeSpan.Zero, 2, 2), 5), await series);
        Assert.Equal(0, service.LateReplies);
    }

    [Fact]
    public async Task ASeriesSendsEachPingAfterThePreviousReplyOrTimeoutAndReturnsTheRepliesInOrderWhenTheyTakeDifferentTimes()
    {
        // The target answers its requests after 5, 1, (never), 3 and 2 ms of virtual time.
        var target = new Coordinate(0, 2, 0);
        var responder = new DelayedPingResponder(TimeSpan.FromMilliseconds(5), TimeSpan.FromMilliseconds(1), null, TimeSpan.FromMilliseconds(3), TimeSpan.FromMilliseconds(2));
        var cube = InMemoryCube.Start(new TorusShape(4, 4, 4), n => n.Register(n.Self == target ? responder : new PingService()));
        var service = cube[new Coordinate(0, 0, 0)].GetService<PingService>()!;
        var start = cube.Clock.GetUtcNow();
        var series = service.PingSeriesAsync(target, 5, TimeSpan.FromMilliseconds(100));

        Assert.True(cube.RunUntil(() => series.IsCompleted, TimeSpan.FromSeconds(2)), "The series did not finish.");

        // (The responder does not count the hop that brought it the request: one outbound hop of two.)
        Assert.Equal(
            [
                new PingReply(target, Lost: false, TimeSpan.FromMilliseconds(5), 1, 2),
                new PingReply(target, Lost: false, TimeSpan.FromMilliseconds(1), 1, 2),
                new PingReply(target, Lost: true, TimeSpan.Zero, 0, 0),
                new PingReply(target, Lost: false, TimeSpan.FromMilliseconds(3), 1, 2),
                new PingReply(target, Lost: false, TimeSpan.FromMilliseconds(2), 1, 2),
            ],
            await series);

        // One ping at a time: each request left when the previous reply came, or its 100 ms ran out.
        Assert.Equal([0, 5, 6, 106, 109], responder.Arrivals.Select(a => (a - start).TotalMilliseconds));
        Assert.Equal(0, service.LateReplies);
    }

    [Fact]
    public async Task ASeriesReportsEachPingLostAfterItsOwnTimeoutWhenTheTargetIsDead()
    {
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3), n => n.Register(new PingService()));
        cube.Kill(new Coordinate(1, 1, 1));
        var start = cube.Clock.Elapsed;
        var series = cube[new Coordinate(0, 0, 0)].GetService<PingService>()!.PingSeriesAsync(new Coordinate(1, 1, 1), 3, TimeSpan.FromMilliseconds(200));

        Assert.True(cube.RunUntil(() => series.IsCompleted, TimeSpan.FromSeconds(2)), "The series did not finish.");

        Assert.Equal(Enumerable.Repeat(new PingReply(new Coordinate(1, 1, 1), Lost: true, TimeSpan.Zero, 0, 0), 3), await series);
        Assert.Equal(TimeSpan.FromMilliseconds(600), cube.Clock.Elapsed - start);
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
