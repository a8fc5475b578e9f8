using CamCube.Services.Diagnostics;
using CamCube.Testing;
using HelloService;

namespace CamCube.Transport.Simulation.Tests;

/// <summary>
/// Service test cases of the runtime's own suites (HelloServiceTests, PingServiceTests), run
/// unchanged on the in-memory transport and on the simulator.
/// </summary>
public sealed class SameTestsOnBothTransportsTests
{
    public static TheoryData<TestTransport> Transports => [TestTransport.InMemory, TestTransport.Simulator];

    [Theory]
    [MemberData(nameof(Transports))]
    public void QuestionReachesTheKeysRootAndTheAnswerComesBackOnEitherTransport(TestTransport transport)
    {
        var shape = new TorusShape(3, 3, 3);
        var cube = TestCube.Start(transport, shape, n => n.Register(new WhoOwnsService()));
        var asker = cube[new Coordinate(0, 0, 0)].GetService<WhoOwnsService>()!;
        asker.Ask("alpha");
        asker.Ask("beta");

        Assert.True(cube.RunUntil(() => asker.Answers.Count == 2, TimeSpan.FromSeconds(1)));

        Assert.Equal(
            [("alpha", KeySpace.For(shape).GetServersForKey(Key.FromString("alpha"), 1)[0]), ("beta", KeySpace.For(shape).GetServersForKey(Key.FromString("beta"), 1)[0])],
            asker.Answers.OrderBy(a => a.Key, StringComparer.Ordinal));
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public void BurstThatQueuesBehindItsLinksIsDeliveredWholeOnEitherTransport(TestTransport transport)
    {
        // In the simulator the node asks for room only while packets wait (room on request): a
        // burst of 500 frames, one link slot each, must still drain through every hop.
        var shape = new TorusShape(4, 4, 4);
        var cube = TestCube.Start(transport, shape, n => n.Register(new BurstService()));
        var key = Key.FromString("burst");
        var root = KeySpace.For(shape).GetServersForKey(key, 1)[0];
        var sender = new Coordinate((root.X + 2) % 4, (root.Y + 2) % 4, (root.Z + 1) % 4);

        cube[sender].GetService<BurstService>()!.Send(500, key);

        var receiver = cube[root].GetService<BurstService>()!;
        Assert.True(cube.RunUntil(() => receiver.Delivered == 500, TimeSpan.FromSeconds(1)));
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public void NextServerInTheListAnswersWhenTheRootFailsOnEitherTransport(TestTransport transport)
    {
        var shape = new TorusShape(3, 3, 3);
        var cube = TestCube.Start(transport, shape, n => n.Register(new WhoOwnsService()));
        var owners = KeySpace.For(shape).GetServersForKey(Key.FromString("alpha"), 2);
        cube.Kill(owners[0]);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        var asker = cube[owners[1] == new Coordinate(0, 0, 0) ? new Coordinate(2, 2, 2) : new Coordinate(0, 0, 0)].GetService<WhoOwnsService>()!;

        asker.Ask("alpha");

        Assert.True(cube.RunUntil(() => asker.Answers.Count == 1, TimeSpan.FromSeconds(1)));
        Assert.Equal(owners[1], Assert.Single(asker.Answers).Owner);
    }

    [Theory]
    [InlineData(TestTransport.InMemory, 1, 0, 0, 1)]
    [InlineData(TestTransport.InMemory, 2, 2, 2, 6)]
    [InlineData(TestTransport.Simulator, 1, 0, 0, 1)]
    [InlineData(TestTransport.Simulator, 2, 2, 2, 6)]
    public async Task PingReportsHopCountsBothWaysOnEitherTransport(TestTransport transport, int x, int y, int z, int distance)
    {
        var cube = TestCube.Start(transport, new TorusShape(4, 4, 4), n => n.Register(new PingService()));
        var ping = cube[new Coordinate(0, 0, 0)].GetService<PingService>()!.PingAsync(new Coordinate(x, y, z), TimeSpan.FromSeconds(1));

        Assert.True(cube.RunUntil(() => ping.IsCompleted, TimeSpan.FromSeconds(2)));

        var reply = await ping;
        Assert.False(reply.Lost);
        Assert.Equal(distance, reply.OutboundHops);
        Assert.Equal(distance, reply.ReturnHops);
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task PingToADeadServerIsLostAfterTheTimeoutOnEitherTransport(TestTransport transport)
    {
        var cube = TestCube.Start(transport, new TorusShape(3, 3, 3), n => n.Register(new PingService()));
        cube.Kill(new Coordinate(1, 1, 1));
        var start = cube.Elapsed;
        var ping = cube[new Coordinate(0, 0, 0)].GetService<PingService>()!.PingAsync(new Coordinate(1, 1, 1), TimeSpan.FromMilliseconds(200));

        Assert.True(cube.RunUntil(() => ping.IsCompleted, TimeSpan.FromSeconds(2)));

        Assert.True((await ping).Lost);
        Assert.InRange(cube.Elapsed - start, TimeSpan.FromMilliseconds(200), TimeSpan.FromMilliseconds(300));
    }
}
