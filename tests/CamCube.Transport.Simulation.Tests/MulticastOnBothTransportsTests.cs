using CamCube.Packets;
using CamCube.Runtime.Tests.Shared;
using CamCube.Services;
using CamCube.Testing;

namespace CamCube.Transport.Simulation.Tests;

/// <summary>
/// <see cref="INodeContext.Transmit"/>: one payload to several servers with one buffer and counted
/// references, the same cases in memory and in the simulator (and over UDP in the UDP tests).
/// </summary>
public sealed class MulticastOnBothTransportsTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_sender = new(0, 0, 0);

    /// <summary>Six children at one, two and three hops, as a multicast tree's node has at most.</summary>
    private static readonly Coordinate[] s_children = [new(1, 0, 0), new(2, 0, 0), new(0, 1, 1), new(1, 1, 1), new(2, 2, 2), new(0, 2, 1)];

    public static TheoryData<TestTransport> Transports => [TestTransport.InMemory, TestTransport.Simulator];

    [Theory]
    [MemberData(nameof(Transports))]
    public void EverySixChildrenReceivesTheSameBytesFromOneBufferReturnedOnceOnEitherTransport(TestTransport transport)
    {
        var cube = TestCube.Start(transport, s_shape, n => n.Register(new MulticastProbeService()));
        var pool = new PacketPool(pooledPacketsMax: 4);
        var payload = MulticastProbeService.MakePayload(1_000, seed: 6);

        var statuses = Probe(cube, s_sender).Transmit(pool, payload, s_children);

        Assert.All(statuses, s => Assert.Equal(RouteStatus.Queued, s));
        Assert.Equal((1L, 0L, 6L), (pool.RentedCount, pool.ReturnedCount, pool.HeaderPool.RentedCount));
        Assert.True(cube.RunUntil(() => s_children.All(c => Probe(cube, c).Arrivals.Count == 1), TimeSpan.FromSeconds(1)));
        Settle(cube);
        foreach (var child in s_children)
        {
            var (source, hops, bytes) = Assert.Single(Probe(cube, child).Arrivals);
            Assert.Equal((s_sender, s_shape.Distance(s_sender, child)), (source, (int)hops));
            Assert.Equal(payload, bytes);
        }

        Assert.Equal((1L, 1L, 6L), (pool.RentedCount, pool.ReturnedCount, pool.HeaderPool.ReturnedCount));
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public void UnreachableChildLosesOnlyItsOwnHeaderWhileTheOthersAndThisServerGetWholeCopiesOnEitherTransport(TestTransport transport)
    {
        var cube = TestCube.Start(transport, s_shape, n => n.Register(new MulticastProbeService()));
        var dead = new Coordinate(2, 2, 2);
        cube.Kill(dead);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        var pool = new PacketPool(pooledPacketsMax: 4);
        var payload = MulticastProbeService.MakePayload(700, seed: 7);
        Coordinate[] targets = [new(1, 0, 0), dead, s_sender, new(1, 1, 1)];

        var statuses = Probe(cube, s_sender).Transmit(pool, payload, targets);

        Assert.Equal([RouteStatus.Queued, RouteStatus.DroppedUnreachable, RouteStatus.DeliveredLocally, RouteStatus.Queued], statuses);
        Assert.True(cube.RunUntil(() => pool.ReturnedCount == 1, TimeSpan.FromSeconds(1)));
        Settle(cube);
        foreach (var live in new[] { new Coordinate(1, 0, 0), s_sender, new Coordinate(1, 1, 1) })
        {
            Assert.Equal(payload, Assert.Single(Probe(cube, live).Arrivals).Payload);
        }

        Assert.Equal(1, cube[s_sender].Counters.Dropped(DropReason.Unreachable));
        Assert.Equal((1L, 1L, 4L, 4L), (pool.RentedCount, pool.ReturnedCount, pool.HeaderPool.RentedCount, pool.HeaderPool.ReturnedCount));
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public void FullQueueDropsOnlyTheHeadersPastItsCapacityAndEveryBufferReturnsOnceOnEitherTransport(TestTransport transport)
    {
        var cube = TestCube.Start(transport, s_shape, n => n.Register(new MulticastProbeService(), 1, sendQueuePacketsMax: 2));
        var pool = new PacketPool(pooledPacketsMax: 4);
        var queued = new List<string>();
        var full = 0;

        // Round after round in one turn of the loop, until the queue of 2 overflows: each round's
        // payload starts with its round number, so an arrival names the buffer it came from.
        for (var round = 0; round < 5_000 && full == 0; round++)
        {
            var statuses = Probe(cube, s_sender).Transmit(pool, MulticastProbeService.MakeRoundPayload(round), s_children);
            for (var i = 0; i < statuses.Length; i++)
            {
                full += statuses[i] == RouteStatus.DroppedQueueFull ? 1 : 0;
                if (statuses[i] == RouteStatus.Queued)
                {
                    queued.Add($"{s_children[i]}/{round}");
                }
            }
        }

        Assert.True(full > 0);
        Assert.True(cube.RunUntil(() => pool.ReturnedCount == pool.RentedCount, TimeSpan.FromSeconds(5)));
        Settle(cube);
        var arrived = s_children.SelectMany(c => Probe(cube, c).Arrivals.Select(a => (Child: c, a.Payload))).ToArray();
        Assert.Equal(queued.Order(), arrived.Select(a => $"{a.Child}/{MulticastProbeService.RoundOf(a.Payload)}").Order());
        Assert.All(arrived, a => Assert.Equal(MulticastProbeService.MakeRoundPayload(MulticastProbeService.RoundOf(a.Payload)), a.Payload));
        Assert.Equal(full, cube[s_sender].Counters.Dropped(DropReason.QueueFull));
        Assert.Equal(pool.HeaderPool.RentedCount, pool.HeaderPool.ReturnedCount);
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public void CutLinkUnderWayLosesOrReroutesOnlyItsOwnHeadersAndEveryBufferReturnsOnceOnEitherTransport(TestTransport transport)
    {
        var cube = TestCube.Start(transport, s_shape, n => n.Register(new MulticastProbeService()));
        var pool = new PacketPool(pooledPacketsMax: 4);
        var queued = new HashSet<string>();
        for (var round = 0; round < 20; round++)
        {
            var statuses = Probe(cube, s_sender).Transmit(pool, MulticastProbeService.MakeRoundPayload(round), s_children);
            for (var i = 0; i < statuses.Length; i++)
            {
                Assert.Equal(RouteStatus.Queued, statuses[i]);
                queued.Add($"{s_children[i]}/{round}");
            }
        }

        // The cable on (1,0,0)'s only shortest path goes down with headers queued for it and on it.
        Cut(cube, s_sender, LinkDirection.PlusX);

        Assert.True(cube.RunUntil(() => pool.ReturnedCount == pool.RentedCount && cube.ViewsConverged(), TimeSpan.FromSeconds(5)));
        Settle(cube);
        var arrived = s_children.SelectMany(c => Probe(cube, c).Arrivals.Select(a => (Child: c, a.Payload))).ToArray();
        var names = arrived.Select(a => $"{a.Child}/{MulticastProbeService.RoundOf(a.Payload)}").ToArray();
        Assert.Equal(names.Length, names.Distinct().Count());
        Assert.Subset(queued, names.ToHashSet());
        Assert.All(arrived, a => Assert.Equal(MulticastProbeService.MakeRoundPayload(MulticastProbeService.RoundOf(a.Payload)), a.Payload));
        Assert.Equal((20L, 20L), (pool.RentedCount, pool.ReturnedCount));
        Assert.Equal((120L, 120L), (pool.HeaderPool.RentedCount, pool.HeaderPool.ReturnedCount));
    }

    private static void Cut(ITestCube cube, Coordinate server, LinkDirection link)
    {
        switch (cube)
        {
            case InMemoryCube inMemory:
                inMemory.Network.CutLink(server, link);
                break;
            case SimulatedCube simulated:
                Assert.True(simulated.Network.CutLink(server, link));
                break;
            default:
                throw new ArgumentException($"No cut link on {cube.GetType().Name}.", nameof(cube));
        }
    }

    /// <summary>Runs on for a while after the condition held, so that a late second return of a buffer would show in the counts.</summary>
    private static void Settle(ITestCube cube) => Assert.False(cube.RunUntil(() => false, TimeSpan.FromMilliseconds(50)));

    private static MulticastProbeService Probe(ITestCube cube, Coordinate server) => cube[server].GetService<MulticastProbeService>()!;
}
