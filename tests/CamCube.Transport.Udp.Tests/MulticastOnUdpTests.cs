using CamCube.Packets;
using CamCube.Runtime.Tests.Shared;
using CamCube.Services;

namespace CamCube.Transport.Udp.Tests;

/// <summary>
/// <see cref="INodeContext.Transmit"/> over UDP: one payload to several servers with one buffer and
/// counted references, each node on its own loop thread (the same cases as in memory and in the simulator).
/// </summary>
public sealed class MulticastOnUdpTests
{
    private static readonly TorusShape s_shape = new(3, 3, 1);
    private static readonly Coordinate s_sender = new(0, 0, 0);
    private static readonly Coordinate[] s_children = [new(1, 0, 0), new(2, 0, 0), new(0, 1, 0), new(0, 2, 0), new(1, 1, 0), new(2, 2, 0)];

    [Fact]
    public void EverySixChildrenReceivesTheSameBytesFromOneBufferReturnedOnceOverUdp()
    {
        using var cube = UdpNodeCube.Start(s_shape, n => n.Register(new MulticastProbeService()));
        var pool = new PacketPool(2048, pooledPacketsMax: 4);
        var payload = MulticastProbeService.MakePayload(1_000, seed: 6);

        // In the loop's turn that sends, nothing has left yet: the frames wait for the turn's flush.
        var (statuses, rented, returned, headers) = cube.On(s_sender, n =>
        {
            var statuses = n.GetService<MulticastProbeService>()!.Transmit(pool, payload, s_children);
            return (statuses, pool.RentedCount, pool.ReturnedCount, pool.HeaderPool.RentedCount);
        });

        Assert.All(statuses, s => Assert.Equal(RouteStatus.Queued, s));
        Assert.Equal((1L, 0L, 6L), (rented, returned, headers));
        cube.WaitUntil(() => s_children.All(c => Arrivals(cube, c).Length == 1));
        foreach (var child in s_children)
        {
            var (source, _, bytes) = Assert.Single(Arrivals(cube, child));
            Assert.Equal(s_sender, source);
            Assert.Equal(payload, bytes);
        }

        cube.WaitUntil(() => pool.ReturnedCount == 1);
        Assert.Equal((1L, 1L, 6L), (pool.RentedCount, pool.ReturnedCount, pool.HeaderPool.ReturnedCount));
    }

    [Fact]
    public void UnreachableChildLosesOnlyItsOwnHeaderWhileTheOthersAndThisServerGetWholeCopiesOverUdp()
    {
        using var cube = UdpNodeCube.Start(s_shape, n => n.Register(new MulticastProbeService()));
        var dead = new Coordinate(2, 2, 0);
        cube.Kill(dead);
        cube.WaitUntil(cube.ViewsWhole);
        var pool = new PacketPool(2048, pooledPacketsMax: 4);
        var payload = MulticastProbeService.MakePayload(700, seed: 7);
        Coordinate[] targets = [new(1, 0, 0), dead, s_sender, new(1, 1, 0)];

        var statuses = cube.On(s_sender, n => n.GetService<MulticastProbeService>()!.Transmit(pool, payload, targets));

        Assert.Equal([RouteStatus.Queued, RouteStatus.DroppedUnreachable, RouteStatus.DeliveredLocally, RouteStatus.Queued], statuses);
        Coordinate[] live = [new(1, 0, 0), s_sender, new(1, 1, 0)];
        cube.WaitUntil(() => live.All(c => Arrivals(cube, c).Length == 1));
        Assert.All(live, c => Assert.Equal(payload, Assert.Single(Arrivals(cube, c)).Payload));
        cube.WaitUntil(() => pool.ReturnedCount == 1);
        Assert.Equal(1, cube.On(s_sender, n => n.Counters.Dropped(DropReason.Unreachable)));
        Assert.Equal((1L, 1L, 4L, 4L), (pool.RentedCount, pool.ReturnedCount, pool.HeaderPool.RentedCount, pool.HeaderPool.ReturnedCount));
    }

    [Fact]
    public void FullQueueDropsOnlyTheHeadersPastItsCapacityAndEveryBufferReturnsOnceOverUdp()
    {
        using var cube = UdpNodeCube.Start(s_shape, n => n.Register(new MulticastProbeService(), 1, sendQueuePacketsMax: 2));
        var pool = new PacketPool(2048, pooledPacketsMax: 4);

        // Rounds in one turn of the sender's loop until its queue of 2 overflows; each round's payload
        // starts with its round number, so an arrival names the buffer it came from.
        var (queued, full) = cube.On(s_sender, n =>
        {
            var probe = n.GetService<MulticastProbeService>()!;
            var queued = new List<string>();
            var full = 0;
            for (var round = 0; round < 5_000 && full == 0; round++)
            {
                var statuses = probe.Transmit(pool, MulticastProbeService.MakeRoundPayload(round), s_children);
                for (var i = 0; i < statuses.Length; i++)
                {
                    full += statuses[i] == RouteStatus.DroppedQueueFull ? 1 : 0;
                    if (statuses[i] == RouteStatus.Queued)
                    {
                        queued.Add($"{s_children[i]}/{round}");
                    }
                }
            }

            return (queued, full);
        });

        Assert.True(full > 0);
        cube.WaitUntil(() => pool.ReturnedCount == pool.RentedCount && s_children.Sum(c => Arrivals(cube, c).Length) == queued.Count);
        var arrived = s_children.SelectMany(c => Arrivals(cube, c).Select(a => (Child: c, a.Payload))).ToArray();
        Assert.Equal(queued.Order(), arrived.Select(a => $"{a.Child}/{MulticastProbeService.RoundOf(a.Payload)}").Order());
        Assert.All(arrived, a => Assert.Equal(MulticastProbeService.MakeRoundPayload(MulticastProbeService.RoundOf(a.Payload)), a.Payload));
        Assert.Equal(full, cube.On(s_sender, n => n.Counters.Dropped(DropReason.QueueFull)));
        Assert.Equal(pool.HeaderPool.RentedCount, pool.HeaderPool.ReturnedCount);
    }

    private static (Coordinate Source, byte Hops, byte[] Payload)[] Arrivals(UdpNodeCube cube, Coordinate server) =>
        cube.On(server, n => n.GetService<MulticastProbeService>()!.Arrivals.ToArray());
}
