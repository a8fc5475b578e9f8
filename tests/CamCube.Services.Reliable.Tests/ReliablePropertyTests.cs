using CamCube.Testing;
using CsCheck;

namespace CamCube.Services.Reliable.Tests;

public sealed class ReliablePropertyTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);

    /// <summary>A run: the simulator's seed and, per sender, the sizes of the messages it sends.</summary>
    private static readonly Gen<(int Seed, int[][] Sizes)> s_runs =
        Gen.Select(Gen.Int[1, int.MaxValue], Gen.Int[4, 40_000].Array[1, 12].Array[3]);

    [Fact]
    public void EveryMessageArrivesOnceInOrderAndIntactWhenTheNetworkDropsDuplicatesAndReorders()
    {
        s_runs.Sample(run => RunLossyExchange(run.Seed, run.Sizes, LossyFaults.Patience), iter: 30, threads: 1, print: Describe);
    }

    [Fact]
    public void EveryMessageArrivesOnceInOrderAndIntactWhenTheReceiverMayHoldOnlyAFewPacketsAheadOfOrder()
    {
        var notHeld = 0L;
        s_runs.Sample(run => notHeld += RunLossyExchange(run.Seed, run.Sizes, LossyFaults.Patience with { HeldPacketsMax = 4 }), iter: 15, threads: 1, print: Describe);
        Assert.True(notHeld > 0, "no packet ahead of order met the limit: the runs did not exercise it");
    }

    private static string Describe((int Seed, int[][] Sizes) run) => $"seed {run.Seed}, sizes [{string.Join(" | ", run.Sizes.Select(s => string.Join(',', s)))}]";

    /// <summary>Runs the exchange; returns how many packets ahead of order the endpoints did not hold.</summary>
    private static long RunLossyExchange(int seed, int[][] sizes, ReliableOptions options)
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = seed, Faults = LossyFaults.Options }, options);
        var receiver = new Coordinate(1, 2, 1);
        var key = KeyCoordinate.At(new Coordinate(2, 2, 2), (ushort)seed);
        var senders = new[] { new Coordinate(0, 0, 0), new Coordinate(2, 0, 1), new Coordinate(1, 1, 0) };
        var tasks = new List<Task>();
        for (var s = 0; s < senders.Length; s++)
        {
            for (var i = 0; i < sizes[s].Length; i++)
            {
                var body = ReliableCube.Payload(seed + s, i, sizes[s][i]);
                tasks.Add(s == 2 ? cube.EndpointOf(senders[s]).SendAsync(key, body) : cube.EndpointOf(senders[s]).SendAsync(receiver, body));
            }
        }

        Assert.True(cube.Cube.RunUntil(() => tasks.All(t => t.IsCompleted), TimeSpan.FromMinutes(3)), "not every send ended within 3 min of virtual time");
        Assert.All(tasks, t => Assert.True(t.IsCompletedSuccessfully, t.Exception?.InnerException?.Message));
        for (var s = 0; s < senders.Length; s++)
        {
            var inbox = cube.InboxOf(s == 2 ? key.Home : receiver);
            var got = inbox.Messages.Where(m => m.Source == senders[s]).ToList();
            Assert.Equal(sizes[s].Length, got.Count);
            for (var i = 0; i < got.Count; i++)
            {
                Assert.True(ReliableCube.Payload(seed + s, i, sizes[s][i]).AsSpan().SequenceEqual(got[i].Body), $"sender {senders[s]} message {i} differs");
            }
        }

        // Every message is whole, so nothing is held ahead of order any more: the count of held packets is exact.
        Assert.All(cube.Cube.LiveNodes, node => Assert.Equal(0, cube.EndpointOf(node.Self).HeldPackets));
        return cube.Cube.LiveNodes.Sum(node => cube.EndpointOf(node.Self).PacketsNotHeld);
    }
}
